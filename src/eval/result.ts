import type { StopReason } from '../contracts/events.js';

/** One run of one task, as a JSON Lines record (`type: "result"`); `eval merge` reads these back. */
export interface EvalResult {
  type: 'result';
  task: string;
  run: number;
  passed: boolean;
  /** Why it failed: a budget ("turn budget: 10 turns"), a provider error, or the check's failure. Null when passed. */
  reason: string | null;
  stop: StopReason | null;
  provider: string | null;
  model: string | null;
  turns: number;
  inputTokens: number;
  outputTokens: number;
  /** US dollars, when the model's price is known. */
  cost: number | null;
  wallMs: number;
}

/** Results in a canonical order (task, then run), so runs and merged shards compare equal. */
export function sortResults(results: EvalResult[]): EvalResult[] {
  return [...results].sort((a, b) => a.task.localeCompare(b.task) || a.run - b.run);
}
