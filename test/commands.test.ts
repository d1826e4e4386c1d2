import { afterEach, describe, expect, it } from 'vitest';
import { discoverCommands } from '../src/commands/discover-commands.js';
import { expandCommand, findInvocation, splitArguments } from '../src/commands/expand-command.js';
import { shellThroughTool } from '../src/commands/shell-through-tool.js';
import { completeSlash } from '../src/cli/tui/slash-commands.js';
import { createPermissionPolicy } from '../src/permissions/permission-policy.js';
import { bashTool } from '../src/tools/coding/shell/bash.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { skillRepo, writeCommands, type SkillRepo } from './support/skill-fixtures.js';

let fixture: SkillRepo;
afterEach(() => fixture?.cleanup());

function setup() {
  fixture = skillRepo();
  writeCommands(fixture);
  return { ...fixture, catalog: discoverCommands(fixture.workspace, fixture.env) };
}

const noShell = async () => ({ ok: false as const, reason: 'no shell in this test' });

describe('custom command discovery', () => {
  it('finds Markdown and TOML commands at project and user level, sub-folders giving namespaced names', () => {
    const { catalog } = setup();
    expect(catalog.commands.map((c) => `${c.name} ${c.scope} ${c.format}`)).toEqual([
      'frontend:component project markdown',
      'git:fix project toml',
      'review project markdown',
      'standup user markdown',
      'status project markdown',
    ]);
    const review = catalog.commands.find((c) => c.name === 'review')!;
    expect(review).toMatchObject({ description: 'Review a file', argumentHint: '<file> [focus]', allowedTools: ['read_file', 'grep'], model: 'review-model' });
    expect(catalog.warnings).toEqual([expect.stringMatching(/\.claude\/commands\/bad\.md:2: malformed front matter, command skipped/)]);
  });
});

describe('expanding a command', () => {
  it('puts in $ARGUMENTS and $1…, with quoted words kept together', async () => {
    const { catalog } = setup();
    const found = findInvocation('/review src/app.ts "error handling"', catalog.commands)!;
    expect(found.args).toBe('src/app.ts "error handling"');
    expect(await expandCommand(found.command, found.args, noShell)).toEqual({
      ok: true,
      prompt: 'Review src/app.ts with a focus on error handling.\nAll arguments: src/app.ts "error handling"',
    });
    expect(splitArguments(`a 'b c' "d"`)).toEqual(['a', 'b c', 'd']);
  });

  it('puts in {{args}} for Gemini TOML, and appends the arguments when the template has no placeholder', async () => {
    const { catalog } = setup();
    const fix = findInvocation('/git:fix the flaky test', catalog.commands)!;
    expect(await expandCommand(fix.command, fix.args, noShell)).toEqual({ ok: true, prompt: 'Fix the issue: the flaky test' });
    const standup = findInvocation('/standup short please', catalog.commands)!;
    expect(await expandCommand(standup.command, standup.args, noShell)).toEqual({ ok: true, prompt: 'Draft my standup.\n\nARGUMENTS: short please' });
    expect(findInvocation('/etc/hosts explain', catalog.commands)).toBeUndefined();
  });

  it('runs !`cmd` through the bash tool under the permission rules: denied without approval, run when a rule allows it', async () => {
    const { catalog, workspace } = setup();
    const status = catalog.commands.find((c) => c.name === 'status')!;
    const registry = new ToolRegistry([bashTool]);
    const signal = new AbortController().signal;
    const asked = createPermissionPolicy({ mode: 'ask' });
    const denied = await expandCommand(status, '', shellThroughTool(registry, { authorize: asked, workspace, signal }));
    expect(denied).toMatchObject({ ok: false, reason: expect.stringMatching(/^\/status: the shell command `echo STATUS-OUTPUT` in .*status\.md was not run: Denied: /) });
    const allowed = createPermissionPolicy({ mode: 'ask', allow: ['bash(echo STATUS-OUTPUT)'] });
    expect(await expandCommand(status, '', shellThroughTool(registry, { authorize: allowed, workspace, signal }))).toEqual({ ok: true, prompt: 'The status:\nSTATUS-OUTPUT\nExplain it.' });
    const withoutBash = await expandCommand(status, '', shellThroughTool(new ToolRegistry([]), { authorize: allowed, workspace, signal }));
    expect(withoutBash).toMatchObject({ ok: false, reason: expect.stringContaining('the bash tool is not enabled') });
  });
});

describe('completion', () => {
  it('completes custom command names beside the built-in ones', () => {
    expect(completeSlash('/rev', [], ['review', 'frontend:component'])).toEqual({ text: '/review ', candidates: [] });
    expect(completeSlash('/fr', [], ['review', 'frontend:component'])).toEqual({ text: '/frontend:component ', candidates: [] });
  });
});
