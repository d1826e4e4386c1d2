import { hunksIn, splitHunks, withChosen, type Hunk } from './land-hunks.js';
import type { FileChange } from './merge-into-tree.js';

/** What the user chose to land: each file's version with only its chosen hunks, and whether that is all of it. */
export interface LandChoice {
  changes: FileChange[];
  everything: boolean;
}

/** One question of a land by hunks: a hunk of a file, or a file that lands whole or not at all. */
export type HunkQuestion =
  | { path: string; hunk: Hunk; index: number; count: number }
  | { path: string; whole: 'created' | 'deleted' | 'changed (binary)' };

/** Answers one question: true lands that part. */
export type AskHunk = (question: HunkQuestion) => Promise<boolean>;

/**
 * Asks about the change hunk by hunk; a file that cannot be split (binary, created, deleted) is asked
 * about whole. A file with nothing chosen is left out. Undefined once `signal` is aborted (Ctrl-C at a
 * question): nothing is to be applied.
 */
export async function chooseHunks(changes: FileChange[], ask: AskHunk, signal?: AbortSignal): Promise<LandChoice | undefined> {
  const chosen: FileChange[] = [];
  let everything = true;
  for (const change of changes) {
    const parts = splitHunks(change.base, change.theirs);
    if (!parts) {
      const whole = change.base === undefined ? 'created' : change.theirs === undefined ? 'deleted' : 'changed (binary)';
      const yes = await ask({ path: change.path, whole });
      if (signal?.aborted) return undefined;
      if (yes) chosen.push(change);
      else everything = false;
      continue;
    }
    const hunks = hunksIn(parts);
    const taken = new Set<Hunk>();
    for (const [index, hunk] of hunks.entries()) {
      const yes = await ask({ path: change.path, hunk, index, count: hunks.length });
      if (signal?.aborted) return undefined;
      if (yes) taken.add(hunk);
    }
    if (taken.size < hunks.length) everything = false;
    if (taken.size === hunks.length) chosen.push(change);
    else if (taken.size) chosen.push({ ...change, theirs: withChosen(parts, taken) });
  }
  return { changes: chosen, everything };
}

/** Only the named files' changes, whole; a name the change does not touch is an error. */
export function onlyFiles(changes: FileChange[], only: readonly string[]): LandChoice {
  const missing = only.filter((path) => !changes.some((change) => change.path === path));
  if (missing.length) throw new Error(`the session did not change ${missing.join(', ')} (it changed ${changes.map((change) => change.path).join(', ') || 'nothing'})`);
  const kept = changes.filter((change) => only.includes(change.path));
  return { changes: kept, everything: kept.length === changes.length };
}
