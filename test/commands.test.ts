import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
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

  it('finds commands in parent folders up to the repository root (nearer wins on a name), not above it', () => {
    const { write, workspace, env } = setup();
    write('repo/.claude/commands/deploy.md', '---\ndescription: Deploy from the repository root\n---\nDeploy.\n');
    write('repo/.vibe-agent/commands/review.md', '---\ndescription: The root review, shadowed by the nearer one\n---\nRoot review.\n');
    write('outside.md', 'not a command');
    write('.claude/commands/above-repo.md', '---\ndescription: Above the repository\n---\nNo.\n');
    const catalog = discoverCommands(workspace, env);
    expect(catalog.commands.find((c) => c.name === 'deploy')).toMatchObject({ scope: 'project', description: 'Deploy from the repository root', origin: expect.stringContaining('repo/.claude/commands/deploy.md') });
    expect(catalog.commands.find((c) => c.name === 'review')).toMatchObject({ description: 'Review a file' });
    expect(catalog.commands.map((c) => c.name)).not.toContain('above-repo');
  });

  it('skips a FIFO (never opened) and an oversized command file (with a warning), without blocking', () => {
    const { write, workspace, env, repo } = setup();
    spawnSync('mkfifo', [join(repo, 'app/.claude/commands/trap.md')]);
    write('repo/app/.claude/commands/huge.md', `---\ndescription: huge\n---\n${'x'.repeat(200 * 1024)}\n`);
    const catalog = discoverCommands(workspace, env);
    expect(catalog.commands.map((c) => c.name)).not.toContain('trap');
    expect(catalog.commands.map((c) => c.name)).not.toContain('huge');
    expect(catalog.warnings).toEqual(expect.arrayContaining([expect.stringMatching(/huge\.md: skipped, over the \d+-byte limit/)]));
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
