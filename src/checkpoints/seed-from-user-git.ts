import { constants } from 'node:fs';
import { mkdir, open, realpath, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isSecretPath } from '../workspace/secret-files.js';
import { findUserRepository } from './find-user-repository.js';
import { carriedCacheTree } from './cache-tree.js';
import { readIndex, writeIndex, type IndexFile } from './index-file.js';
import { nulList, type ShadowGit } from './shadow-git.js';

/** Larger than any real index (a 1M-file index is ~100 MB); a bigger file is not read. */
const MAX_INDEX_BYTES = 512 * 1024 * 1024;
const ALTERNATES = join('objects', 'info', 'alternates');

/**
 * A new store in a workspace that lies in a git repository (at its top or in a subfolder) starts
 * from the user's own index — its entries under the workspace, paths made relative to it, stat data
 * kept — and borrows the user's objects (an alternates file), so the first snapshot adds only what
 * `git status` would show instead of hashing the whole tree into the store. The user's repository is
 * only read (the index file is parsed here, no git process runs on it). Anything unusual (a split or
 * sparse index, sha256 objects, a work tree set elsewhere, an index git cannot read here) leaves
 * the store empty, as before. Returns whether the store was seeded.
 */
export async function seedFromUserGit(git: ShadowGit, maxFileBytes: number): Promise<boolean> {
  if (await stat(join(git.gitDir, 'index')).catch(() => undefined)) return false;
  const repository = await findUserRepository(git.workTree);
  if (!repository) return false;
  const config = (await readRegular(join(repository.gitDir, 'config'), 1024 * 1024))?.bytes.toString('utf8');
  if (config === undefined || /objectformat|splitindex|sparse|worktree\s*=|\bbare\s*=\s*true/i.test(config)) return false;
  const index = await readRegular(join(repository.gitDir, 'index'), MAX_INDEX_BYTES);
  if (!index) return false;
  const parsed = readIndex(index.bytes);
  if ('unusable' in parsed) return false;
  const objects = await realpath(join(repository.gitDir, 'objects')).catch(() => undefined);
  if (!objects || /[\n\r"]/.test(objects) || !(await stat(objects).catch(() => undefined))?.isDirectory()) return false;
  await mkdir(join(git.gitDir, 'objects', 'info'), { recursive: true });
  await writeFile(join(git.gitDir, ALTERNATES), `${objects}\n`);
  const start = Buffer.from(repository.prefix, 'utf8');
  const { wanted, dropped } = wantedEntries(parsed, start, git.excludedInside(), maxFileBytes);
  const copy = writeIndex(parsed, wanted, start.length, carriedCacheTree(parsed.cacheTree, repository.prefix, dropped));
  await writeFile(join(git.gitDir, 'index'), copy, { mode: 0o600 });
  // The copy keeps the original's time, so git's racy-entry check sees the index as the user's git left it.
  await utimes(join(git.gitDir, 'index'), index.atime, index.mtime);
  try {
    await dropIgnored(git);
    // Every blob the index names must be there (write-tree checks): else this store starts empty.
    await git.must(['write-tree']);
    return true;
  } catch {
    await rm(join(git.gitDir, 'index'), { force: true });
    await rm(join(git.gitDir, ALTERNATES), { force: true });
    return false;
  }
}

/**
 * The user's entries under the workspace (paths starting with `start`), by number, less what the
 * store's own snapshot would not have added, so a seeded tree holds what an unseeded one would:
 * secret files and the CLI's own folders (never stored), files over the size limit (by the index's
 * stat size; they are then reported as too large), unmerged entries (a merge in progress; the file
 * itself is added) and intent-to-add or skip-worktree ones (added from the file, as any other).
 * `dropped`: the paths of those left out, relative to the workspace.
 */
function wantedEntries(index: IndexFile, start: Buffer, excludedInside: string[], maxFileBytes: number): { wanted: Uint32Array; dropped: Buffer[] } {
  const inside = excludedInside.map((path) => `${path}/`);
  const wanted = new Uint32Array(index.count);
  let kept = 0;
  const dropped: Buffer[] = [];
  for (let i = 0; i < index.count; i++) {
    if (!index.pathStartsWith(i, start)) continue;
    const text = index.pathText(i, start.length);
    const plain = index.stage(i) === 0 && !index.extended(i);
    const tooLarge = (index.mode(i) & 0o170000) === 0o100000 && index.size(i) > maxFileBytes;
    if (!plain || tooLarge || isSecretPath(text) || inside.some((dir) => text.startsWith(dir))) dropped.push(index.path(i).subarray(start.length));
    else wanted[kept++] = i;
  }
  return { wanted: wanted.subarray(0, kept), dropped };
}

/** Files the ignore rules cover though the user tracks them: an unseeded store would not hold them. */
async function dropIgnored(git: ShadowGit): Promise<void> {
  const ignored = nulList(await git.must(['ls-files', '-z', '--cached', '--ignored', '--exclude-standard']));
  if (ignored.length) {
    await git.must(['rm', '-q', '-f', '--cached', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'], ignored.map((path) => `:(literal)${path}`).join('\0'));
  }
}

/** A regular file's bytes and times, read without following a symlink or blocking on a FIFO; undefined otherwise. */
async function readRegular(path: string, maxBytes: number): Promise<{ bytes: Buffer; atime: Date; mtime: Date } | undefined> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => undefined);
  if (!handle) return undefined;
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > maxBytes) return undefined;
    return { bytes: await handle.readFile(), atime: info.atime, mtime: info.mtime };
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}
