import type { AgentEvent } from '../contracts/events.js';
import type { Message } from '../contracts/messages.js';
import type { RunResult } from './agent-options.js';
import type { Stop } from './brakes.js';
import type { RunTotals } from './run-totals.js';

/** Ends a run: yields its one `stop` event and returns the result, both from the same facts. */
export function* stopRun(stop: Stop, run: { messages: Message[]; turns: number; totals: RunTotals }): Generator<AgentEvent, RunResult> {
  const { messages, turns, totals } = run;
  // With subagents, what they spent rolls up here, once: the tree's totals and who spent what.
  const tree = totals.budget?.hasChildren ? totals.budget : undefined;
  const usage = tree ? tree.usage : totals.usage;
  const result: RunResult = { answer: stop.answer ?? null, stopReason: stop.reason, messages, usage, turns };
  const event: Extract<AgentEvent, { type: 'stop' }> = { type: 'stop', reason: stop.reason, answer: result.answer, turns, usage };
  if (totals.protocolErrors) result.protocolErrors = totals.protocolErrors;
  if (stop.reason === 'plan') event.plan = result.answer ?? '';
  if (stop.handoff !== undefined) result.handoff = event.handoff = stop.handoff;
  if (stop.error !== undefined) result.error = event.error = stop.error;
  const cost = tree ? tree.cost : totals.cost();
  if (cost !== undefined) result.cost = event.cost = cost;
  if (tree) result.agents = event.agents = tree.breakdown();
  yield event;
  return result;
}
