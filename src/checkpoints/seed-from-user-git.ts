import { constants } from 'node:fs';
import { mkdir, open, realpath, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isSecretPath } from '../workspace/secret-files.js';
import { findUserRepository } from './find-user-repository.js';
import { carriedCacheTree } from './cache-tree.js';
import { parseIndex, writeIndex, type IndexEntry } from './index-file.js';
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
  const parsed = parseIndex(index.bytes);
  if ('unusable' in parsed) return false;
  const objects = await realpath(join(repository.gitDir, 'objects')).catch(() => undefined);
  if (!objects || /[\n\r"]/.test(objects) || !(await stat(objects).catch(() => undefined))?.isDirectory()) return false;
  await mkdir(join(git.gitDir, 'objects', 'info'), { recursive: true });
  await writeFile(join(git.gitDir, ALTERNATES), `${objects}\n`);
  const { wanted, dropped } = wantedEntries(parsed.entries, repository.prefix, git.excludedInside(), maxFileBytes);
  await writeFile(join(git.gitDir, 'index'), writeIndex(wanted, carriedCacheTree(parsed.cacheTree, repository.prefix, dropped)), { mode: 0o600 });
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
 * The user's entries under the workspace (`prefix`), relative to it, less what the store's own
 * snapshot would not have added, so a seeded tree holds what an unseeded one would: secret files and
 * the CLI's own folders (never stored), files over the size limit (by the index's stat size; they are
 * then reported as too large), unmerged entries (a merge in progress; the file itself is added) and
 * intent-to-add or skip-worktree ones (added from the file, as any other). `dropped`: those left out.
 */
function wantedEntries(entries: IndexEntry[], prefix: string, excludedInside: string[], maxFileBytes: number): { wanted: Array<{ fixed: Buffer; path: Buffer }>; dropped: Buffer[] } {
  const inside = excludedInside.map((path) => `${path}/`);
  const wanted: Array<{ fixed: Buffer; path: Buffer }> = [];
  const dropped: Buffer[] = [];
  const start = Buffer.from(prefix, 'utf8');
  for (const entry of entries) {
    if (!entry.path.subarray(0, start.length).equals(start)) continue;
    // At the repository's top the entry itself serves (no second view of 100,000 paths).
    const path = start.length ? entry.path.subarray(start.length) : entry.path;
    if (entry.stage !== 0 || entry.extended) {
      dropped.push(path);
      continue;
    }
    const text = path.toString('utf8');
    if (((entry.mode & 0o170000) === 0o100000 && entry.size > maxFileBytes) || isSecretPath(text) || inside.some((dir) => text.startsWith(dir))) dropped.push(path);
    else wanted.push(start.length ? { fixed: entry.fixed, path } : entry);
  }
  return { wanted, dropped };
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
