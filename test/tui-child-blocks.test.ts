/**
 * The subagent blocks' bookkeeping, from tagged events in the orders concurrency can give:
 * each child is matched to the task call that started it (by prompt), counted, and shown folded
 * or expanded; a grandchild's calls count in its top-level ancestor's block.
 */
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../src/contracts/events.js';
import { ChildBlocks, childBlockLines } from '../src/cli/tui/child-blocks.js';
import { createTheme } from '../src/cli/display/theme.js';

const t = createTheme(false);
const usage = { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
const task = (id: string, prompt: string, description: string) => ({ id, name: 'task', arguments: JSON.stringify({ prompt, description }) });
const child = (agent: string, event: AgentEvent): AgentEvent & { agent: string } => ({ ...event, agent });
const start = (agent: string, input: string) => child(agent, { type: 'run_start', provider: 'p', model: 'm', tools: [], input });
const call = (agent: string, id: string, name: string, args: object) => [
  child(agent, { type: 'tool_call_start', turn: 1, call: { id, name, arguments: JSON.stringify(args) } }),
  child(agent, { type: 'tool_call_end', turn: 1, id, name, status: 'ok', isError: false, output: 'fine', durationMs: 3 }),
];

describe('subagent blocks', () => {
  it('matches children to their task calls by prompt, whichever arrives first, and counts turns, tools and cost', () => {
    const blocks = new ChildBlocks(t, () => 1000);
    blocks.noteTaskCall(task('c1', 'find the parser', 'parser'));
    // The second child reports before its task call is seen.
    blocks.handle(start('main/task-2', 'find the tests'), 100);
    blocks.handle(start('main/task-1', 'find the parser'), 100);
    blocks.noteTaskCall(task('c2', 'find the tests', 'tests'));
    for (const agent of ['main/task-1', 'main/task-2']) blocks.handle(child(agent, { type: 'turn_start', turn: 1 }), 100);
    for (const event of call('main/task-2', 'x', 'read_file', { path: 'test/a.test.ts' })) blocks.handle(event, 100);
    for (const event of call('main/task-2/task-1', 'y', 'grep', { pattern: 'it(' })) blocks.handle(event, 100);
    blocks.handle(child('main/task-2', { type: 'text_delta', turn: 1, text: 'never shown' }), 100);
    blocks.handle(child('main/task-2', { type: 'stop', reason: 'answered', answer: 'ok', turns: 1, usage, cost: 0.0123 } as AgentEvent), 100);
    blocks.handle(child('main/task-1', { type: 'stop', reason: 'cost_limit', answer: null, turns: 1, usage, error: 'the tree budget is spent' } as AgentEvent), 100);

    const first = blocks.forCall('c1')!;
    const second = blocks.forCall('c2')!;
    expect([first.path, second.path]).toEqual(['main/task-1', 'main/task-2']);
    expect(childBlockLines(first, false, t, 1000, 100)).toEqual(['  └ ▸ task-1 parser · 1 turn · 0 tools · failed (the tree budget is spent)']);
    const folded = childBlockLines(second, false, t, 1000, 100);
    expect(folded).toEqual(['  └ ▸ task-2 tests · 1 turn · 2 tools · $0.0123 · done']);
    const expanded = childBlockLines(second, true, t, 1000, 100).join('\n');
    expect(expanded).toMatch(/^ {2}└ ▾ task-2 tests/);
    expect(expanded).toMatch(/✓ read_file path="test\/a\.test\.ts"/);
    expect(expanded).toMatch(/task-1 ✓ grep pattern="it\("/); // the grandchild's call, under its name
    expect(expanded).not.toContain('never shown');
    expect(blocks.unclaimed()).toEqual([]);
  });
});
