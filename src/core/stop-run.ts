import type { AgentEvent } from '../contracts/events.js';
import type { Message } from '../contracts/messages.js';
import type { RunResult } from './agent-options.js';
import type { Stop } from './brakes.js';
import type { RunTotals } from './run-totals.js';

/** Ends a run: yields its one `stop` event and returns the result, both from the same facts. */
export function* stopRun(stop: Stop, run: { messages: Message[]; turns: number; totals: RunTotals }): Generator<AgentEvent, RunResult> {
  const { messages, turns, totals } = run;
  const result: RunResult = { answer: stop.answer ?? null, stopReason: stop.reason, messages, usage: totals.usage, turns };
  const event: Extract<AgentEvent, { type: 'stop' }> = { type: 'stop', reason: stop.reason, answer: result.answer, turns, usage: totals.usage };
  if (totals.protocolErrors) result.protocolErrors = totals.protocolErrors;
  if (stop.handoff !== undefined) result.handoff = event.handoff = stop.handoff;
  if (stop.error !== undefined) result.error = event.error = stop.error;
  const cost = totals.cost();
  if (cost !== undefined) result.cost = event.cost = cost;
  yield event;
  return result;
}
