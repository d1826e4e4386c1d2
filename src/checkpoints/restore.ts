import { readdir, rm, rmdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { nulList, type ShadowGit } from './shadow-git.js';

/** Paths whose content differs between two trees (added, deleted or changed). */
export async function changedPaths(git: ShadowGit, from: string, to: string): Promise<string[]> {
  if (from === to) return [];
  return nulList(await git.must(['diff-tree', '-r', '-z', '--name-only', '--no-renames', from, to]));
}

export interface RestoreResult {
  /** Rewritten with the tree's content (changed or deleted since). */
  restored: string[];
  /** Created since the tree was taken, so removed. */
  removed: string[];
}

/**
 * Makes the workspace match `target`, given `current` (a snapshot taken just now): files changed
 * or deleted since come back with the target's content, files created since are removed (and
 * their directories, once empty). Ignored and oversized files are not in either tree: untouched.
 */
export async function restoreTree(git: ShadowGit, target: string, current: string): Promise<RestoreResult> {
  const status = nulList(await git.must(['diff-tree', '-r', '-z', '--name-status', '--no-renames', target, current]));
  const created: string[] = [];
  const rewrite: string[] = [];
  for (let i = 0; i + 1 < status.length; i += 2) (status[i] === 'A' ? created : rewrite).push(status[i + 1]!);
  for (const path of created) {
    await rm(join(git.workTree, path), { force: true });
    await removeEmptyParents(git.workTree, dirname(path));
  }
  if (rewrite.length) await git.must(['checkout', target, '--pathspec-from-file=-', '--pathspec-file-nul'], rewrite.join('\0'));
  // The shadow index now describes the target; the next snapshot refreshes what it must.
  await git.must(['read-tree', target]);
  return { restored: rewrite, removed: created };
}

async function removeEmptyParents(root: string, dir: string): Promise<void> {
  while (dir !== '.' && dir !== '' && dir !== '/') {
    const full = join(root, dir);
    const entries = await readdir(full).catch(() => undefined);
    if (!entries || entries.length > 0) return;
    await rmdir(full).catch(() => undefined);
    dir = dirname(dir);
  }
}
