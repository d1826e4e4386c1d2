import { constants } from 'node:fs';
import { lstat, mkdir, open, realpath, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isSecretPath } from '../workspace/secret-files.js';
import { nulList, type ShadowGit } from './shadow-git.js';

/** Larger than any real index (a 1M-file index is ~100 MB); a bigger file is not read. */
const MAX_INDEX_BYTES = 512 * 1024 * 1024;
const ALTERNATES = join('objects', 'info', 'alternates');

/**
 * A new store in a workspace that is the top of a git repository starts from the user's own index
 * (copied, with its stat data) and borrows the user's objects (an alternates file), so the first
 * snapshot adds only what `git status` would show instead of hashing the whole tree into the store.
 * The user's repository is only read. Anything unusual (a split or sparse index, sha256 objects, a
 * work tree set elsewhere, an index git cannot read here) leaves the store empty, as before.
 * Returns whether the store was seeded.
 */
export async function seedFromUserGit(git: ShadowGit, maxFileBytes: number): Promise<boolean> {
  if (await stat(join(git.gitDir, 'index')).catch(() => undefined)) return false;
  const userGit = join(git.workTree, '.git');
  const dir = await lstat(userGit).catch(() => undefined);
  if (!dir?.isDirectory()) return false;
  const config = (await readRegular(join(userGit, 'config'), 1024 * 1024))?.bytes.toString('utf8');
  if (config === undefined || /objectformat|splitindex|sparse|worktree\s*=|\bbare\s*=\s*true/i.test(config)) return false;
  const index = await readRegular(join(userGit, 'index'), MAX_INDEX_BYTES);
  if (!index || !usableIndex(index.bytes)) return false;
  const objects = await realpath(join(userGit, 'objects')).catch(() => undefined);
  if (!objects || /[\n\r"]/.test(objects) || !(await stat(objects).catch(() => undefined))?.isDirectory()) return false;
  await mkdir(join(git.gitDir, 'objects', 'info'), { recursive: true });
  await writeFile(join(git.gitDir, ALTERNATES), `${objects}\n`);
  await writeFile(join(git.gitDir, 'index'), index.bytes, { mode: 0o600 });
  // The copy keeps the original's time, so git's racy-entry check sees the index as the user's git left it.
  await utimes(join(git.gitDir, 'index'), index.atime, index.mtime);
  try {
    await dropUnwanted(git, maxFileBytes);
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
 * Drops what the store's own snapshot would not have added, so a seeded tree holds what an unseeded
 * one would: secret files and the CLI's own folders (never stored), files over the size limit (by the
 * index's stat size; they are then reported as too large), files the ignore rules cover though the
 * user tracks them, and unmerged entries (a merge in progress; the file itself is added).
 */
async function dropUnwanted(git: ShadowGit, maxFileBytes: number): Promise<void> {
  const inside = git.excludedInside().map((path) => `${path}/`);
  const unwanted = new Set(nulList(await git.must(['ls-files', '-z', '--cached', '--ignored', '--exclude-standard'])));
  // "<mode> <sha> <stage>\t<path>\0" then five lines of stat data, the last "  size: N\tflags: F".
  const chunks = (await git.must(['ls-files', '-z', '--stage', '--debug'])).split('\0');
  for (let i = 0; i + 1 < chunks.length; i++) {
    const stats = STAT_LINES.exec(chunks[i + 1]!);
    if (!stats || (i > 0 && !STAT_LINES.test(chunks[i]!))) throw new Error('unexpected ls-files --debug output');
    const header = i === 0 ? chunks[0]! : chunks[i]!.replace(STAT_LINES, '');
    const size = Number(stats[1]);
    const tab = header.indexOf('\t');
    const path = header.slice(tab + 1);
    if (header[tab - 1] !== '0' || size > maxFileBytes || isSecretPath(path) || inside.some((dir) => path.startsWith(dir))) unwanted.add(path);
  }
  if (unwanted.size) {
    await git.must(['rm', '-q', '-f', '--cached', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'], [...unwanted].map((path) => `:(literal)${path}`).join('\0'));
  }
}

const STAT_LINES = /^ {2}ctime:[^\n]*\n {2}mtime:[^\n]*\n {2}dev:[^\n]*\n {2}uid:[^\n]*\n {2}size: (\d+)\tflags: [0-9a-f]+\n/;

/**
 * An index file git knows ("DIRC", version 2–4). A split index (its shared part is not copied) fails
 * the listing in dropUnwanted, and the store then starts empty.
 */
function usableIndex(bytes: Buffer): boolean {
  if (bytes.length < 12 || bytes.toString('latin1', 0, 4) !== 'DIRC') return false;
  const version = bytes.readUInt32BE(4);
  return version >= 2 && version <= 4;
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
