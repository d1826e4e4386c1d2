import { safeStdout } from '../../display/safe-output.js';
import { visibleText } from '../../display/visible-text.js';
import { askYesNo } from '../../setup/ask-yes-no.js';
import { hunksIn, showHunk, splitHunks, withChosen, type Hunk } from './land-hunks.js';
import type { FileChange } from './merge-into-tree.js';

/** What the user chose to land: each file's version with only its chosen hunks, and whether that is all of it. */
export interface LandChoice {
  changes: FileChange[];
  everything: boolean;
}

/**
 * Shows the change hunk by hunk and asks about each (y lands it, n or Esc leaves it out); a file that
 * cannot be split (binary, created, deleted) is asked about whole. A file with nothing chosen is left out.
 * Undefined once `signal` is aborted (Ctrl-C at a question): nothing is to be applied.
 */
export async function chooseHunks(changes: FileChange[], ask: (question: string) => Promise<boolean> = askYesNo, signal?: AbortSignal): Promise<LandChoice | undefined> {
  const chosen: FileChange[] = [];
  let everything = true;
  for (const change of changes) {
    const parts = splitHunks(change.base, change.theirs);
    if (!parts) {
      const what = change.base === undefined ? 'created' : change.theirs === undefined ? 'deleted' : 'changed (binary)';
      const yes = await ask(`${visibleText(change.path)}: ${what} by the session. Land it?`);
      if (signal?.aborted) return undefined;
      if (yes) chosen.push(change);
      else everything = false;
      continue;
    }
    const hunks = hunksIn(parts);
    const taken = new Set<Hunk>();
    for (const [index, hunk] of hunks.entries()) {
      safeStdout.write(`${visibleText(showHunk(change.path, hunk))}\n`);
      const yes = await ask(`Land this hunk (${index + 1} of ${hunks.length} in ${visibleText(change.path)})?`);
      if (signal?.aborted) return undefined;
      if (yes) taken.add(hunk);
    }
    if (taken.size < hunks.length) everything = false;
    if (taken.size === hunks.length) chosen.push(change);
    else if (taken.size) chosen.push({ ...change, theirs: withChosen(parts, taken) });
  }
  return { changes: chosen, everything };
}

/** `--only PATH`: the named files' changes, whole; a name the change does not touch is an error. */
export function onlyFiles(changes: FileChange[], only: readonly string[]): LandChoice {
  const missing = only.filter((path) => !changes.some((change) => change.path === path));
  if (missing.length) throw new Error(`the session did not change ${missing.join(', ')} (it changed ${changes.map((change) => change.path).join(', ') || 'nothing'})`);
  const kept = changes.filter((change) => only.includes(change.path));
  return { changes: kept, everything: kept.length === changes.length };
}
