import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { childTools } from '../src/agents/child-tools.js';
import { loadAgents } from '../src/agents/load-agents.js';
import { parseAgentFile } from '../src/agents/parse-agent-file.js';
import { Budget } from '../src/core/budget.js';
import { createFileTools } from '../src/tools/coding/file-tools.js';
import { bashTool } from '../src/tools/coding/shell/bash.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('agent definitions', () => {
  it('reads a Claude Code agent file: comma-separated tools, inherit model, body as the prompt', () => {
    const agent = parseAgentFile('---\nname: reviewer\ndescription: Reviews diffs\ntools: Read, Grep, Bash\nmodel: inherit\nmax-cost: 0.5\n---\nYou review code.\n', 'x.md');
    expect(agent).toEqual({ name: 'reviewer', description: 'Reviews diffs', prompt: 'You review code.', tools: ['Read', 'Grep', 'Bash'], maxCost: 0.5, source: 'x.md' });
    const tools = childTools([...createFileTools(), bashTool], agent).map((tool) => tool.name);
    expect(tools.sort()).toEqual(['bash', 'read_file']);
  });

  it('says what is wrong with a malformed file', () => {
    expect(() => parseAgentFile('no front matter', 'x.md')).toThrow(/no front matter/);
    expect(() => parseAgentFile('---\nname: a b\n---\n', 'x.md')).toThrow(/name: letters.*description/);
  });

  it('loads built-ins, then the user dir, .claude/agents and .vibe-agent/agents, later names replacing earlier ones', () => {
    const root = mkdtempSync(join(tmpdir(), 'agents-'));
    dirs.push(root);
    const write = (dir: string, file: string, text: string) => {
      mkdirSync(join(root, dir), { recursive: true });
      writeFileSync(join(root, dir, file), text);
    };
    write('user/agents', 'explorer.md', '---\nname: explorer\ndescription: mine\n---\n');
    write('ws/.claude/agents', 'tester.md', '---\nname: tester\ndescription: runs tests\n---\nRun tests.');
    write('ws/.vibe-agent/agents', 'tester.md', '---\nname: tester\ndescription: runs tests better\n---\n');
    write('ws/.vibe-agent/agents', 'broken.md', 'oops');
    const warnings: string[] = [];
    const agents = loadAgents({ workspace: join(root, 'ws'), userConfigDir: join(root, 'user') }, (message) => warnings.push(message));
    expect(agents.map((agent) => [agent.name, agent.description])).toEqual([
      ['general', expect.any(String)],
      ['explorer', 'mine'],
      ['tester', 'runs tests better'],
    ]);
    expect(warnings).toEqual([expect.stringMatching(/broken\.md skipped: no front matter/)]);
  });
});

describe('the tree budget', () => {
  it('caps a share at what is left and never hands reserved money out twice', () => {
    const root = new Budget({ maxCost: 1 });
    const a = root.share('main/task-1', { maxCost: 0.6 });
    const b = root.share('main/task-2', { maxCost: 0.6 });
    expect(a.limits.maxCost).toBe(0.6);
    expect(b.limits.maxCost).toBeCloseTo(0.4, 10);
    const usage = { inputTokens: 100, outputTokens: 10, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
    a.charge(usage, 0.1);
    // A's unspent $0.50 is still reserved: nothing left for a third child.
    expect(root.share('main/task-3', { maxCost: 0.6 }).limits.maxCost).toBeCloseTo(0, 10);
    a.release();
    expect(root.share('main/task-4', { maxCost: 0.6 }).limits.maxCost).toBeCloseTo(0.5, 10);
    expect(root.cost).toBeCloseTo(0.1, 10);
    expect(root.exhausted()).toBeUndefined();
    b.charge(usage, 0.9);
    expect(a.exhausted()).toEqual({ reason: 'cost_limit', error: expect.stringMatching(/^the agent tree \(main\) spent \$1\.0000/) });
  });

  it('counts turns and tokens across the tree', () => {
    const root = new Budget({ maxTurns: 3, maxTokens: 1000 });
    const child = root.share('main/task-1', {});
    expect(child.limits).toEqual({ maxTurns: 3, maxTokens: 1000 });
    child.countTurn();
    root.countTurn();
    child.charge({ inputTokens: 900, outputTokens: 100, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }, undefined);
    expect(child.exhausted()?.reason).toBe('token_limit');
    expect(root.breakdown().map((spend) => [spend.agent, spend.turns])).toEqual([
      ['main', 1],
      ['main/task-1', 1],
    ]);
  });
});
