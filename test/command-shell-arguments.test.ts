import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverCommands, type CustomCommand } from '../src/commands/discover-commands.js';
import { expandCommand, findInvocation } from '../src/commands/expand-command.js';
import { shellQuote } from '../src/commands/shell-quote.js';
import { shellThroughTool } from '../src/commands/shell-through-tool.js';
import { createPermissionPolicy } from '../src/permissions/permission-policy.js';
import { bashTool } from '../src/tools/coding/shell/bash.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { skillRepo, type SkillRepo } from './support/skill-fixtures.js';

let fixture: SkillRepo | undefined;
afterEach(() => fixture?.cleanup());

/** The shape of gemini-cli's own grep-code.toml (our words): a grep of the arguments, then a summary. */
const GREP_CODE = `description = "Searches the code for a pattern and summarises what it finds."
prompt = """
Summarise where \`{{args}}\` appears and what it is for.

Matches:
!{grep -rn {{args}} .}
"""
`;

function toml(template: string, workspace: string): CustomCommand {
  return { name: 'probe', scope: 'project', format: 'toml', template, origin: `${workspace}/.gemini/commands/probe.toml` } as CustomCommand;
}

/** The real bash tool through the registry, allowed to run: the path a command's `!{…}` takes in a run. */
function realShell(workspace: string) {
  const registry = new ToolRegistry([bashTool]);
  return shellThroughTool(registry, { authorize: createPermissionPolicy({ mode: 'yolo' }), workspace, signal: new AbortController().signal });
}

/** Words bash's echo would take as its options rather than print. */
const echoOption = (text: string) => /^-[neE]+$/.test(text.trim().split(/\s+/)[0] ?? '');

describe("{{args}} in a Gemini command's !{…}", () => {
  it("runs gemini-cli's grep-code shape with an argument holding a quote: one shell word, raw outside the braces", async () => {
    fixture = skillRepo();
    fixture.write('repo/app/.gemini/commands/grep-code.toml', GREP_CODE);
    fixture.write('repo/app/notes.txt', "Why? It's complicated.\n");
    const { commands } = discoverCommands(fixture.workspace, fixture.env);
    const found = findInvocation("/grep-code It's complicated", commands)!;
    const expanded = await expandCommand(found.command, found.args, realShell(fixture.workspace));
    expect(expanded).toEqual({ ok: true, prompt: "Summarise where `It's complicated` appears and what it is for.\n\nMatches:\n./notes.txt:1:Why? It's complicated." });
  });

  it('echoes back exactly the argument, whatever it holds (no injection), through the real shell', async () => {
    fixture = skillRepo();
    const workspace = fixture.workspace;
    const shell = realShell(workspace);
    const special = fc.constantFrom("'", '"', '$', '`', '\\', '!', ';', '|', '&', '(', ')', '{', '}', '<', '>', '*', '?', '[', ']', '~', '#', ' ', '\n', '\t', '-', '$(', '${', "'\\''");
    const argument = fc
      .oneof(fc.string({ unit: special, maxLength: 12 }), fc.string({ unit: 'binary-ascii', maxLength: 20 }), fc.string({ unit: 'grapheme', maxLength: 8 }))
      .filter((text) => !text.includes('\0') && !echoOption(text));
    await fc.assert(
      fc.asyncProperty(argument, async (text) => {
        const expanded = await expandCommand(toml('!{echo {{args}}}', workspace), text, shell);
        expect(expanded).toEqual({ ok: true, prompt: text.trim() });
      }),
      { numRuns: 150 },
    );
  });

  it('finds the sites in the template, so an argument that looks like one is never run; braces nest; an unclosed one is an error', async () => {
    fixture = skillRepo();
    const ran: string[] = [];
    const record = async (command: string) => {
      ran.push(command);
      return { ok: true as const, output: `<${command}>` };
    };
    const raw = await expandCommand(toml('Look at {{args}} then !{echo {{args}}}', fixture.workspace), '!{id} $(id)', record);
    expect(ran).toEqual([`echo '!{id} $(id)'`]);
    expect(raw).toEqual({ ok: true, prompt: `Look at !{id} $(id) then <echo '!{id} $(id)'>` });
    const dollars = await expandCommand(toml('{{args}}', fixture.workspace), "$& $' $`", record);
    expect(dollars).toEqual({ ok: true, prompt: "$& $' $`" });
    const unclosed = await expandCommand(toml('Run !{echo {oops}', fixture.workspace), '', record);
    expect(unclosed).toMatchObject({ ok: false, reason: expect.stringContaining('has no closing brace') });
  });

  it('quotes for sh as well as bash: the same word comes back from dash', () => {
    const text = "It's $HOME `id` \"x\"";
    const command = `printf %s ${shellQuote(text)}`;
    expect(spawnSync('sh', ['-c', command], { encoding: 'utf8' }).stdout).toBe(text);
  });
});
