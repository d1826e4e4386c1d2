import { normalizeOptionalValueFlag } from './optional-value-flag.js';

/** A worktree name: what `git worktree` and the branch `vibe/NAME` take safely. */
export const WORKTREE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * `-w`/`--worktree` takes an optional name, which node:util parseArgs cannot express. The word after
 * it is the name when it looks like one (letters, digits, ".", "_", "-") and is not the line's last
 * word (the last is the task); otherwise the flag stands alone and a name is made up from the task.
 * `--worktree=NAME` always names it. Rewritten here to `--worktree=NAME` or `--worktree=` (no name).
 */
export function normalizeWorktreeFlag(argv: string[]): string[] {
  return normalizeOptionalValueFlag(argv, ['-w', '--worktree'], '--worktree', (word, last) => !last && WORKTREE_NAME.test(word));
}
