import type { StopReason } from '../contracts/events.js';
import type { ToolCall, ToolMessage } from '../contracts/messages.js';
import type { Budget } from './budget.js';
import type { RepeatDetector } from './repeat-detector.js';
import type { RunTotals } from './run-totals.js';

/** How a run ends: the reason, and what goes with it. */
export interface Stop {
  reason: StopReason;
  answer?: string;
  handoff?: string;
  error?: string;
}

/** What the brakes look at between steps. */
export interface RunProgress {
  turns: number;
  totals: RunTotals;
  signal: AbortSignal;
}

/** A stop condition: the stop it calls for, or undefined to go on (vercel/ai's stop predicates, with a reason). */
export type Brake = (run: RunProgress) => Stop | undefined;

/** The first brake that calls for a stop, in the order given. */
export function firstStop(run: RunProgress, ...brakes: Brake[]): Stop | undefined {
  for (const brake of brakes) {
    const stop = brake(run);
    if (stop) return stop;
  }
  return undefined;
}

export const aborted: Brake = ({ signal }) => (signal.aborted ? { reason: 'aborted' } : undefined);

/** Every request allowed with tools has been made; the loop may still ask for a hand-off. */
export const turnLimit =
  (maxTurns: number): Brake =>
  ({ turns }) =>
    turns >= maxTurns ? { reason: 'turn_limit' } : undefined;

/**
 * The one limit check, for a single agent and a tree alike: the budget (this agent's share and
 * every ancestor's) has a limit reached, so no request may be sent (see Budget.exhausted for the
 * rule and the messages). A cost limit that cannot be priced stops the run at once: a brake that
 * cannot price the model must not silently let it spend.
 */
export const spentLimit =
  (budget: Budget): Brake =>
  ({ totals }) => {
    if (budget.limitsCost && !totals.price) return { reason: 'cost_limit', error: `no price is known for model "${totals.model}", so a cost limit cannot be kept (pass a price)` };
    return budget.exhausted();
  };

/** Records a turn's calls with their results (in call order); a stop when one is repeated past its limit. */
export function repeatedCall(detector: RepeatDetector, calls: ToolCall[], results: ToolMessage[]): Stop | undefined {
  let repeated: string | undefined;
  results.forEach((result, index) => {
    repeated = detector.record(calls[index]!, result.content) ?? repeated;
  });
  return repeated ? { reason: 'repeated_call', error: repeated } : undefined;
}
