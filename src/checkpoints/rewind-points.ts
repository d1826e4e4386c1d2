import { readSessionFile, type RawRecord } from '../session/read-session.js';
import { rewindPoint } from '../session/rewind-point.js';
import type { Checkpoint, Left } from './checkpoint-log.js';
import { changedPaths } from './restore.js';
import type { ShadowGit } from './shadow-git.js';

/**
 * A place `rewind` can go back to: before one of the session's prompts (its files and its
 * conversation), or before a rewind (going there undoes it). Numbered 1, 2, 3… in the order they
 * happened; new prompts and rewinds only add to the end, so a number keeps its meaning.
 */
export interface RewindPoint {
  n: number;
  kind: 'prompt' | 'rewind';
  /** The prompt (kind `prompt`). */
  prompt?: string;
  /** When: the run's first checkpoint, or the rewind's. Absent for a prompt whose run ran no tools. */
  at?: string;
  /** The prompt is still in the conversation (a rewind has not cut it away). */
  live: boolean;
  /** What the files go back to: the first checkpoint taken after this point. Absent: no file has changed since. */
  checkpoint?: Checkpoint;
  /** The session records the conversation keeps; undefined when the session has no record of the point. */
  keepRecords: number | undefined;
  /** The checkpoints of this point's own run (or the rewind's own), from which the files it changed are found. */
  own?: { first: Checkpoint; last: Checkpoint };
}

interface Log {
  checkpoints: Checkpoint[];
  lefts: Left[];
}

/** The rewind points of a session, from its records and its checkpoint log. */
export function rewindPoints(records: readonly RawRecord[], log: Log): RewindPoint[] {
  const runs = promptRuns(records);
  const points: Array<Omit<RewindPoint, 'n'> & { position: number; order: number }> = [];
  for (const run of runs) {
    const own = log.checkpoints.filter((checkpoint) => checkpoint.kind === 'turn' && checkpoint.run === run.run);
    // The first capture after the prompt: its run's own, a later run's, or one a rewind took before it touched anything.
    const checkpoint = log.checkpoints.find((c) => (c.kind === 'turn' ? (c.run ?? 0) >= run.run : (c.toRecord ?? 0) > run.index));
    points.push({
      kind: 'prompt',
      prompt: run.input,
      ...(own[0] ? { at: own[0].at, own: { first: own[0], last: own.at(-1)! } } : {}),
      live: run.live,
      ...(checkpoint ? { checkpoint } : {}),
      keepRecords: rewindPoint(records as RawRecord[], run.run, 1),
      position: run.index,
      order: 1,
    });
  }
  for (const checkpoint of log.checkpoints.filter((c) => c.kind === 'rewind')) {
    // A rewind is recorded at the end of the records as they were: before any prompt that came after it.
    points.push({ kind: 'rewind', at: checkpoint.at, live: true, checkpoint, keepRecords: checkpoint.toRecord, own: { first: checkpoint, last: checkpoint }, position: checkpoint.toRecord ?? 0, order: 0 });
  }
  points.sort((a, b) => a.position - b.position || a.order - b.order);
  return points.map(({ position: _position, order: _order, ...point }, i) => ({ n: i + 1, ...point }));
}

/** Where `rewind` goes without --to: before the last prompt still in the conversation. */
export function defaultRewindPoint(points: readonly RewindPoint[]): RewindPoint | undefined {
  return points.filter((point) => point.kind === 'prompt' && point.live).at(-1);
}

/**
 * The files a point's run (or rewind) changed: from its first checkpoint to what it left (the log's
 * `left` line after its last checkpoint), else to the next checkpoint. Undefined when that is not known
 * (a run still going, or killed before it recorded what it left).
 */
export async function filesChangedAt(git: ShadowGit, log: Log, point: RewindPoint): Promise<string[] | undefined> {
  if (!point.own) return [];
  const { first, last } = point.own;
  const left = log.lefts.find((entry) => entry.after === last.n && (point.kind === 'rewind') === (entry.made !== undefined));
  // A rewind that wrote no files (conversation only) records no `left`.
  if (point.kind === 'rewind') return left ? changedPaths(git, first.tree, left.tree) : [];
  // Its snapshot never reached the log (the process was killed): the files the tools wrote since are what is known.
  if (!first.tree) return first.preImages ? Object.keys(first.preImages).sort() : undefined;
  const end = left?.tree ?? log.checkpoints.find((checkpoint) => checkpoint.n > last.n)?.tree;
  return !end ? undefined : changedPaths(git, first.tree, end);
}

interface PromptRun {
  /** Its number among the file's run_start records (subagents' included), as checkpoints count runs. */
  run: number;
  /** Its run_start record's index. */
  index: number;
  input: string;
  live: boolean;
}

/** The main agent's runs, with whether each is still in the conversation after the file's rewinds. */
function promptRuns(records: readonly RawRecord[]): PromptRun[] {
  const runs: PromptRun[] = [];
  let count = 0;
  // The live runs (their indexes) as each change left them: a rewind to record k brings back the state at k.
  let live: number[] = [];
  const changes: Array<{ at: number; live: number[] }> = [{ at: -1, live: [] }];
  records.forEach((record, index) => {
    if (record.type === 'run_start') {
      count++;
      if ('agent' in record) return;
      runs.push({ run: count, index, input: typeof record.input === 'string' ? record.input : '', live: false });
      live = [...live, index];
      changes.push({ at: index, live });
    } else if (record.type === 'rewind' && typeof record.toRecord === 'number' && !('agent' in record)) {
      const to = Math.min(record.toRecord, index);
      live = changes.filter((change) => change.at < to).at(-1)!.live;
      changes.push({ at: index, live });
    }
  });
  const liveNow = new Set(live);
  return runs.map((run) => ({ ...run, live: liveNow.has(run.index) }));
}

/** A session's rewind points as its files stand now. */
export function sessionRewindPoints(store: { log: { read(): Log } }, sessionPath: string): RewindPoint[] {
  return rewindPoints(readSessionFile(sessionPath).records, store.log.read());
}
