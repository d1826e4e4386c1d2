import { lstat, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { nulList, type ShadowGit } from './shadow-git.js';

/** Files larger than this are left out of snapshots (and reported), so a stray video or dump stays cheap. */
export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

export interface Snapshot {
  /** The git tree of the workspace as it was. */
  tree: string;
  /** Workspace-relative paths left out because of their size. */
  tooLarge: string[];
}

/**
 * Records the workspace as a tree in the shadow repository: every file git would not ignore
 * (the workspace's .gitignore files apply), except files over `maxFileBytes`. Cheap when little
 * changed: git's index remembers file stats, so only changed files are read.
 */
export async function takeSnapshot(git: ShadowGit, maxFileBytes = DEFAULT_MAX_FILE_BYTES): Promise<Snapshot> {
  await refuseSpecialIgnoreFiles(git.workTree);
  await git.ensure();
  const candidates = nulList(await git.must(['ls-files', '-z', '--others', '--modified', '--exclude-standard']));
  const tooLarge: string[] = [];
  await Promise.all(
    candidates.map(async (path) => {
      const stat = await lstat(join(git.workTree, path)).catch(() => undefined);
      if (stat?.isFile() && stat.size > maxFileBytes) tooLarge.push(path);
    }),
  );
  tooLarge.sort();
  const excluded = tooLarge.map((path) => `:(exclude,literal)${path}`);
  if (tooLarge.length) {
    // A file that grew past the limit must not stay in the index with its old content.
    await git.run(['rm', '-q', '--cached', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'], tooLarge.join('\0'));
  }
  // --ignore-errors: a file vanishing or unreadable mid-snapshot leaves it out instead of failing the snapshot.
  const pathspecs = ['.', ...excluded].join('\0');
  const added = await git.run(['add', '-A', '--ignore-errors', '--pathspec-from-file=-', '--pathspec-file-nul'], pathspecs);
  if (added.code !== 0 && !/unable to (index|stat)|Permission denied/i.test(added.stderr)) {
    throw new Error(`git add failed in the checkpoint store: ${added.stderr.trim()}`);
  }
  const tree = (await git.must(['write-tree'])).trim();
  return { tree, tooLarge };
}

/** git opens a FIFO .gitignore and waits on it for good (a hostile repository's trap): refuse before git runs. */
async function refuseSpecialIgnoreFiles(workTree: string): Promise<void> {
  for (const name of ['.gitignore', '.ignore', join('.git', 'info', 'exclude')]) {
    const entry = await lstat(join(workTree, name)).catch(() => undefined);
    if (entry && !entry.isFile() && !entry.isSymbolicLink()) throw new Error(`${name} is not a regular file`);
    if (entry?.isSymbolicLink()) {
      const target = await stat(join(workTree, name)).catch(() => undefined);
      if (target && !target.isFile()) throw new Error(`${name} links to something that is not a regular file`);
    }
  }
}
