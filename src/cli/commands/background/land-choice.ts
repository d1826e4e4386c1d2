import { chooseHunks as chooseBy, type HunkQuestion, type LandChoice } from '../../../background/land-choice.js';
import { showHunk } from '../../../background/land-hunks.js';
import type { FileChange } from '../../../background/merge-into-tree.js';
import { safeStdout } from '../../display/safe-output.js';
import { visibleText } from '../../display/visible-text.js';
import { askYesNo } from '../../setup/ask-yes-no.js';

export { onlyFiles, type LandChoice } from '../../../background/land-choice.js';

/**
 * The land's hunk questions on the terminal: each hunk shown as a diff, then y lands it, n or Esc leaves
 * it out; a created, deleted or binary file is asked about whole.
 */
export const askHunkOnTerminal =
  (ask: (question: string) => Promise<boolean> = askYesNo) =>
  async (question: HunkQuestion): Promise<boolean> => {
    const path = visibleText(question.path);
    if ('whole' in question) return ask(`${path}: ${question.whole} by the session. Land it?`);
    safeStdout.write(`${visibleText(showHunk(question.path, question.hunk))}\n`);
    return ask(`Land this hunk (${question.index + 1} of ${question.count} in ${path})?`);
  };

/** chooseHunks (src/background) asking on the terminal; undefined after Ctrl-C at a question. */
export function chooseHunks(changes: FileChange[], ask: (question: string) => Promise<boolean> = askYesNo, signal?: AbortSignal): Promise<LandChoice | undefined> {
  return chooseBy(changes, askHunkOnTerminal(ask), signal);
}
