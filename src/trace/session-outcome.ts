import type { RawRecord } from '../session/read-session.js';

/** What the session was asked and how it ended, for the trace page's header. */
export interface SessionOutcome {
  /** The first prompt of the main agent. */
  task?: string;
  /** The main agent's last answer, when its last run answered. */
  answer?: string;
  /** Why the main agent's last run stopped (answered, turn_limit, provider_error, …), and the error if one. */
  stop?: { reason: string; error?: string };
}

/** Read from the records: a subagent's own prompts and stops (records with an `agent`) are not the session's. */
export function sessionOutcome(records: readonly RawRecord[]): SessionOutcome {
  const main = records.filter((record) => typeof record.agent !== 'string');
  const task = main.find((record) => record.type === 'run_start' && typeof record.input === 'string')?.input as string | undefined;
  const stop = main.findLast((record) => record.type === 'stop');
  const outcome: SessionOutcome = task !== undefined ? { task } : {};
  if (!stop) return outcome;
  if (typeof stop.answer === 'string' && stop.answer !== '') outcome.answer = stop.answer;
  outcome.stop = { reason: String(stop.reason ?? 'unknown'), ...(typeof stop.error === 'string' ? { error: stop.error } : {}) };
  return outcome;
}
