import { describe, expect, it } from 'vitest';
import { describeEvent } from '../src/cli/display/describe-event.js';

const text = (line: ReturnType<typeof describeEvent>) => line?.map((span) => span.text).join('');
const usage = { inputTokens: 1000, outputTokens: 200, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };

describe('a subagent in the output', () => {
  it('is folded under its name: start, calls, results and end, but not its text', () => {
    expect(text(describeEvent({ type: 'run_start', provider: 'openai', model: 'gpt-4o', tools: [], input: 'x', agent: 'main/task-2' }))).toBe('  ┌ task-2 started (gpt-4o)');
    const call = { id: 'c1', name: 'read_file', arguments: '{"path":"a.ts"}' };
    expect(text(describeEvent({ type: 'tool_call_start', turn: 1, call, agent: 'main/task-2' }))).toMatch(/^ {2}│ task-2 → read_file .*a\.ts/);
    expect(text(describeEvent({ type: 'text_delta', turn: 1, text: 'hi', agent: 'main/task-2' }))).toBeUndefined();
    const stop = { type: 'stop', answer: 'ok', turns: 3, usage, cost: 0.0045, agent: 'main/task-2' } as const;
    expect(text(describeEvent({ ...stop, reason: 'answered' }))).toBe('  └ task-2 done: 3 turns, 1200 tokens, $0.0045');
    expect(text(describeEvent({ ...stop, reason: 'cost_limit', answer: null }))).toBe('  └ task-2 stopped (cost_limit): 3 turns, 1200 tokens, $0.0045');
  });

  it('a plan ends the top run with its own line', () => {
    expect(text(describeEvent({ type: 'stop', reason: 'plan', answer: 'p', plan: 'p', turns: 1, usage }))).toMatch(/^✓ Plan ready/);
  });
});
