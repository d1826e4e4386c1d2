import { describe, expect, it } from 'vitest';
import { aborted, firstStop, repeatedCall, spentLimit, turnLimit, type RunProgress } from '../src/core/brakes.js';
import { Budget } from '../src/core/budget.js';
import { RepeatDetector } from '../src/core/repeat-detector.js';
import { RunTotals } from '../src/core/run-totals.js';
import type { ToolCall, ToolMessage } from '../src/contracts/messages.js';
import { priceOf } from '../src/providers/pricing.js';

const tokens = (inputTokens: number, outputTokens: number, estimated?: boolean) => ({ inputTokens, outputTokens, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, ...(estimated ? { estimated } : {}) });

function progress(model = 'gpt-4o', turns = 0, budget?: Budget): RunProgress {
  return { turns, totals: new RunTotals(model, priceOf(model), budget), signal: new AbortController().signal };
}

const call = (id: string, args: string): ToolCall => ({ id, name: 'look', arguments: args });
const result = (id: string, content: string): ToolMessage => ({ role: 'tool', toolCallId: id, name: 'look', content, isError: false });

describe('the brakes', () => {
  it('turn limit: calls for a stop once the turns made reach the limit', () => {
    expect(turnLimit(3)(progress('gpt-4o', 2))).toBeUndefined();
    expect(turnLimit(3)(progress('gpt-4o', 3))).toEqual({ reason: 'turn_limit' });
  });

  it('abort: calls for a stop once the signal has fired', () => {
    const controller = new AbortController();
    const run = { ...progress(), signal: controller.signal };
    expect(aborted(run)).toBeUndefined();
    controller.abort();
    expect(aborted(run)).toEqual({ reason: 'aborted' });
  });

  it('cost limit (the one rule): go on below it, a stop once spent reaches it (saying when usage was estimated), and at once when the model has no price', () => {
    const unlimited = new Budget();
    const free = progress('gpt-4o', 0, unlimited);
    free.totals.add(1, tokens(100_000, 10_000));
    expect(spentLimit(unlimited)(free)).toBeUndefined();
    const limit = new Budget({ maxCost: 0.35 });
    const run = progress('gpt-4o', 0, limit);
    run.totals.add(1, tokens(50_000, 5_000));
    expect(spentLimit(limit)(run)).toBeUndefined();
    // gpt-4o: 0.1M in × $2.50 + 0.01M out × $10 = $0.35 in all: the limit is reached, not passed, and that stops.
    run.totals.add(2, tokens(50_000, 5_000));
    expect(spentLimit(limit)(run)).toEqual({ reason: 'cost_limit', error: 'spent $0.3500 of the $0.35 limit' });
    run.totals.add(3, tokens(1, 0, true));
    expect(spentLimit(limit)(run)).toEqual({ reason: 'cost_limit', error: 'spent $0.3500 of the $0.35 limit (partly estimated usage)' });
    const unpriced = new Budget({ maxCost: 1 });
    expect(spentLimit(unpriced)(progress('mystery-model', 0, unpriced))).toEqual({ reason: 'cost_limit', error: 'no price is known for model "mystery-model", so a cost limit cannot be kept (pass a price)' });
    expect(spentLimit(unlimited)(progress('mystery-model', 0, unlimited))).toBeUndefined();
  });

  it('a tree: the same rule and messages, naming whose limit was reached', () => {
    const root = new Budget({ maxCost: 0.35, maxTokens: 1_000_000 }, 'main');
    const child = root.share('main/task-1', { maxTokens: 110_000 });
    const run = progress('gpt-4o', 0, child);
    run.totals.add(1, tokens(100_000, 10_000));
    // The child's share is capped by what the tree has left: its own share is what it reached.
    expect(spentLimit(child)(run)).toEqual({ reason: 'cost_limit', error: 'this agent spent $0.3500 of the $0.35 limit' });
    expect(spentLimit(root)(progress('gpt-4o', 0, root))).toEqual({ reason: 'cost_limit', error: 'the agent tree (main) spent $0.3500 of the $0.35 limit' });
    const roomy = new Budget({ maxCost: 10 }, 'main').share('main/task-1', { maxTokens: 110_000 });
    const alone = progress('gpt-4o', 0, roomy);
    alone.totals.add(1, tokens(100_000, 10_000));
    expect(spentLimit(roomy)(alone)).toEqual({ reason: 'token_limit', error: 'this agent used 110000 of the 110000-token limit' });
  });

  it('repeated call: the same call (canonical arguments) with the same result, three times across turns', () => {
    const detector = new RepeatDetector({ sameResult: 3, changingResult: 8 });
    expect(repeatedCall(detector, [call('1', '{"a":1,"b":2}')], [result('1', 'same')])).toBeUndefined();
    expect(repeatedCall(detector, [call('2', '{"b":2,"a":1}')], [result('2', 'same')])).toBeUndefined();
    expect(repeatedCall(detector, [call('3', '{ "a": 1, "b": 2 }')], [result('3', 'same')])).toEqual({
      reason: 'repeated_call',
      error: 'look was called 3 times in a row with the same arguments and got the same result each time.',
    });
  });

  it('firstStop: the first brake in the order given wins; none means go on', () => {
    const controller = new AbortController();
    controller.abort();
    const run = { ...progress('mystery-model', 5), signal: controller.signal };
    expect(firstStop(run, aborted, spentLimit(new Budget({ maxCost: 1 })), turnLimit(5))).toEqual({ reason: 'aborted' });
    expect(firstStop(run, turnLimit(5), aborted)).toEqual({ reason: 'turn_limit' });
    expect(firstStop(progress(), aborted, spentLimit(new Budget()), turnLimit(5))).toBeUndefined();
  });
});
