import { existsSync } from 'node:fs';
import { readSessionFile, type RawRecord } from './read-session.js';

/**
 * Events are numbered per session (`seq`, counting on across resumes) and each stored one carries
 * its number, so a reader can ask for "everything after N". Deltas are numbered but not stored (the
 * `assistant_message` after them holds their text whole): the stored numbers have gaps. Files
 * written before numbering have records without `seq`; they are history, never "after" anything.
 */
export interface NumberedRecord extends RawRecord {
  seq: number;
}

const numbered = (record: RawRecord): record is NumberedRecord => typeof record.seq === 'number' && Number.isInteger(record.seq);

/** The highest number stored (0 when none is). */
export function lastSeq(records: readonly RawRecord[]): number {
  let last = 0;
  for (const record of records) if (numbered(record) && record.seq > last) last = record.seq;
  return last;
}

/** The stored events numbered above `after`, in order, read from the session file (empty when there is none). */
export function readEventsAfter(path: string, after = 0): NumberedRecord[] {
  if (!existsSync(path)) return [];
  return readSessionFile(path).records.filter((record): record is NumberedRecord => numbered(record) && record.seq > after);
}

/**
 * Whether the file's last run never reached its `stop`: the process died (or was killed) mid-turn.
 * Only the session's own runs count (a subagent's events carry `agent`).
 */
export function runInFlight(records: readonly RawRecord[]): boolean {
  let open = false;
  for (const record of records) {
    if (record.agent !== undefined) continue;
    if (record.type === 'run_start') open = true;
    else if (record.type === 'stop' || record.type === 'interrupted') open = false;
  }
  return open;
}
