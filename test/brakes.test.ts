import { describe, expect, it } from 'vitest';
import { aborted, costLimit, firstStop, repeatedCall, turnLimit, type RunProgress } from '../src/core/brakes.js';
import { RepeatDetector } from '../src/core/repeat-detector.js';
import { RunTotals } from '../src/core/run-totals.js';
import type { ToolCall, ToolMessage } from '../src/contracts/messages.js';
import { priceOf } from '../src/providers/pricing.js';

const tokens = (inputTokens: number, outputTokens: number, estimated?: boolean) => ({ inputTokens, outputTokens, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, ...(estimated ? { estimated } : {}) });

function progress(model = 'gpt-4o', turns = 0): RunProgress {
  return { turns, totals: new RunTotals(model, priceOf(model)), signal: new AbortController().signal };
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

  it('cost limit: nothing without a limit, a stop past it (saying when usage was estimated), and at once when the model has no price', () => {
    const run = progress('gpt-4o');
    expect(costLimit(undefined)(run)).toBeUndefined();
    run.totals.add(1, tokens(100_000, 10_000));
    // gpt-4o: 0.1M in × $2.50 + 0.01M out × $10 = $0.35.
    expect(costLimit(0.35)(run)).toBeUndefined();
    run.totals.add(2, tokens(1, 0, true));
    expect(costLimit(0.35)(run)).toEqual({ reason: 'cost_limit', error: 'spent $0.3500, over the limit of $0.35 (partly estimated usage)' });
    expect(costLimit(1)(progress('mystery-model'))).toEqual({ reason: 'cost_limit', error: 'no price is known for model "mystery-model", so a cost limit cannot be kept (pass a price)' });
    expect(costLimit(undefined)(progress('mystery-model'))).toBeUndefined();
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
    expect(firstStop(run, aborted, costLimit(1), turnLimit(5))).toEqual({ reason: 'aborted' });
    expect(firstStop(run, turnLimit(5), aborted)).toEqual({ reason: 'turn_limit' });
    expect(firstStop(progress(), aborted, costLimit(undefined), turnLimit(5))).toBeUndefined();
  });
});
