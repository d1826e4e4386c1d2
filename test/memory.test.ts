import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SYSTEM_PROMPT } from '../src/core/system-prompt.js';
import { buildSystemPrompt } from '../src/memory/build-system-prompt.js';
import { capMemory } from '../src/memory/cap-memory.js';
import { forgetFacts, factsIn } from '../src/memory/memory-file.js';
import { createRememberTool } from '../src/memory/remember-tool.js';
import { ToolRegistry } from '../src/tools/registry.js';

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A workspace with nested directories and a separate config home. */
function setup() {
  const root = mkdtempSync(join(tmpdir(), 'vibe-memory-'));
  temps.push(root);
  const workspace = join(root, 'ws');
  mkdirSync(join(workspace, 'pkg', 'deep'), { recursive: true });
  const env = { HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'config'), DEPLOY_TOKEN: 'tok-1234567890' };
  mkdirSync(join(env.XDG_CONFIG_HOME, 'vibe-agent'), { recursive: true });
  return { root, workspace, env };
}

describe('buildSystemPrompt', () => {
  it('is the default prompt alone when there is no memory', () => {
    const { workspace, env } = setup();
    expect(buildSystemPrompt({ workspace, env })).toBe(DEFAULT_SYSTEM_PROMPT);
  });

  it('loads user memory, then AGENTS.md from the root down to cwd (CLAUDE.md where no AGENTS.md), then project facts', () => {
    const { workspace, env } = setup();
    writeFileSync(join(env.XDG_CONFIG_HOME, 'vibe-agent', 'AGENTS.md'), 'USER-RULES\n');
    writeFileSync(join(env.XDG_CONFIG_HOME, 'vibe-agent', 'memory.md'), '- USER-FACT\n');
    writeFileSync(join(workspace, 'AGENTS.md'), 'ROOT-RULES\n');
    writeFileSync(join(workspace, 'CLAUDE.md'), 'ROOT-CLAUDE-IGNORED\n');
    writeFileSync(join(workspace, 'pkg', 'CLAUDE.md'), 'PKG-CLAUDE\n');
    writeFileSync(join(workspace, 'pkg', 'deep', 'AGENTS.md'), 'DEEP-RULES\n');
    mkdirSync(join(workspace, '.vibe-agent'));
    writeFileSync(join(workspace, '.vibe-agent', 'memory.md'), '- PROJECT-FACT\n');

    const prompt = buildSystemPrompt({ workspace, cwd: join(workspace, 'pkg', 'deep'), env });
    expect(prompt.startsWith(DEFAULT_SYSTEM_PROMPT)).toBe(true);
    const order = ['USER-RULES', 'USER-FACT', 'ROOT-RULES', 'PKG-CLAUDE', 'DEEP-RULES', 'PROJECT-FACT'].map((marker) => prompt.indexOf(marker));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(prompt).not.toContain('ROOT-CLAUDE-IGNORED');
    expect(prompt).toContain('## Project instructions (pkg/CLAUDE.md)');
    expect(prompt).toContain(`## User instructions (${join(env.XDG_CONFIG_HOME, 'vibe-agent', 'AGENTS.md')})`);

    // A cwd outside the workspace reads only the root's file.
    const outside = buildSystemPrompt({ workspace, cwd: tmpdir(), env });
    expect(outside).toContain('ROOT-RULES');
    expect(outside).not.toContain('DEEP-RULES');
  });

  it('is byte-identical when built again (no timestamps or per-run bytes)', () => {
    const { workspace, env } = setup();
    writeFileSync(join(workspace, 'AGENTS.md'), 'Use pnpm.\n');
    const first = buildSystemPrompt({ workspace, cwd: workspace, env });
    expect(buildSystemPrompt({ workspace, cwd: workspace, env })).toBe(first);
  });

  it('caps memory, cutting the most general files first, on a line boundary, with a note', () => {
    const { workspace, env } = setup();
    const line = 'x'.repeat(99) + '\n';
    writeFileSync(join(env.XDG_CONFIG_HOME, 'vibe-agent', 'AGENTS.md'), line.repeat(100)); // 10,000 bytes
    writeFileSync(join(workspace, 'AGENTS.md'), `SPECIFIC\n${line.repeat(20)}`);
    const prompt = buildSystemPrompt({ workspace, env, totalBytes: 4000 });
    expect(prompt).toContain('SPECIFIC');
    expect(prompt).toMatch(/\[vibe-agent: cut after 1900 of 10000 bytes to fit the memory budget; the whole file is .*AGENTS\.md\]/);
    expect(Buffer.byteLength(prompt)).toBeLessThan(DEFAULT_SYSTEM_PROMPT.length + 4000 + 600);
  });

  it('capMemory never splits a UTF-8 character and omits a file when nothing fits', () => {
    const capped = capMemory(
      [
        { kind: 'instructions', title: 'a', path: '/a', text: 'ééééé' },
        { kind: 'instructions', title: 'b', path: '/b', text: 'b'.repeat(10) },
      ],
      { totalBytes: 15 },
    );
    expect(capped[1]!.text).toBe('b'.repeat(10));
    expect(capped[0]!.text).toBe('éé');
    expect(capMemory([{ kind: 'facts', title: 'a', path: '/a', text: 'abc' }], { totalBytes: 0 })[0]!.note).toContain('omitted');
  });
});

describe('the remember tool', () => {
  it('appends bullets to the project or user memory file, once each, and later prompts include them', async () => {
    const { workspace, env } = setup();
    const registry = new ToolRegistry([createRememberTool(env)]);
    const call = (args: unknown, id = 'c') => registry.invoke({ id, name: 'remember', arguments: JSON.stringify(args) }, { workspace });
    expect((await call({ fact: 'Tests run with\n npm test' })).content).toMatch(/^Remembered in .*\.vibe-agent\/memory\.md: Tests run with npm test$/);
    expect((await call({ fact: 'Tests run with npm test' })).content).toContain('Already remembered');
    expect((await call({ fact: 'The user likes tabs', scope: 'user' })).content).toContain('config/vibe-agent/memory.md');
    const secret = await call({ fact: `the key is ${env.DEPLOY_TOKEN}` });
    expect(secret).toMatchObject({ isError: true, content: expect.stringContaining('secret') });
    const empty = await call({ fact: '   ' });
    expect(empty.isError).toBe(true);
    expect(empty.content).toContain('empty');

    const project = readFileSync(join(workspace, '.vibe-agent', 'memory.md'), 'utf8');
    expect(factsIn(project)).toEqual(['Tests run with npm test']);
    expect(project).toMatch(/^# Vibe Agent memory \(this project\)/);
    const prompt = buildSystemPrompt({ workspace, env });
    expect(prompt).toContain('- Tests run with npm test');
    expect(prompt).toContain('- The user likes tabs');
  });

  it('forgetFacts removes matching bullets only', () => {
    const { workspace } = setup();
    const path = join(workspace, 'memory.md');
    writeFileSync(path, '# Memory\n\nkeep this heading line about Tabs\n- Use tabs\n- Deploy with make\n');
    expect(forgetFacts(path, 'TABS')).toEqual(['Use tabs']);
    expect(readFileSync(path, 'utf8')).toBe('# Memory\n\nkeep this heading line about Tabs\n- Deploy with make\n');
    expect(forgetFacts(path, 'nothing')).toEqual([]);
  });
});
