import type { RawRecord } from './read-session.js';

/**
 * Where to cut a session's records so the history is what it was before turn `turn` of its
 * `run`-th prompt: before that turn's `turn_start`, or for a run's first turn before the run
 * itself (its prompt goes too, so the conversation continues from the answer before it).
 * Undefined when the file has no such turn.
 */
export function rewindPoint(records: RawRecord[], run: number, turn: number): number | undefined {
  let runs = 0;
  let runStart: number | undefined;
  for (let index = 0; index < records.length; index++) {
    const record = records[index]!;
    if (record.type === 'run_start') {
      runs++;
      if (runs === run) runStart = index;
      if (runs > run) break;
      continue;
    }
    if (runStart === undefined || record.type !== 'turn_start' || record.turn !== turn) continue;
    if (turn > 1) return index;
  }
  if (runStart === undefined || turn > 1) return undefined;
  // The run's system prompt record, written just before it, goes with it.
  return records[runStart - 1]?.type === 'system_prompt' ? runStart - 1 : runStart;
}

/** How many run_start records the file holds: the number of the run in progress, once its run_start is recorded. */
export function countRuns(records: RawRecord[]): number {
  return records.filter((record) => record.type === 'run_start').length;
}
