import type { GitResult, ShadowGit } from './shadow-git.js';
import { dropStalePackTemps } from './stale-pack-temps.js';

/** What the files to add weigh: their number and their bytes on disk. */
export interface AddWeight {
  files: number;
  bytes: number;
}

/**
 * `git add -A` of `pathspecs`. `bulk` (a large add: what its files weigh): the files' contents go
 * into packs (git's bulk check-in, which `add` uses for files over core.bigFileThreshold) instead of
 * a loose object each: a first snapshot of 100,000 files writes a few dozen files, not 100,000 (each
 * a 4 KB block at least and four file-system calls). Compressed as fast as loose objects are (level 1).
 * A few files stay loose, so the store does not gather a pack per snapshot. A pack an earlier add
 * was killed in the middle of is removed first (dropStalePackTemps).
 */
export async function addAll(git: ShadowGit, pathspecs: string[], bulk: AddWeight | undefined): Promise<GitResult> {
  await dropStalePackTemps(git.gitDir);
  const packing = bulk ? ['-c', 'core.bigFileThreshold=1', '-c', 'pack.compression=1', '-c', `pack.packSizeLimit=${bulkPackLimit(bulk)}`] : [];
  return git.run([...packing, 'add', '-A', '--ignore-errors', '--pathspec-from-file=-', '--pathspec-file-nul'], pathspecs.join('\0'));
}

/**
 * git's bulk check-in looks each new object up in a list of those written to the pack it is writing
 * (git 2.39: a linear scan), so one pack of n files costs n²: 100,000 files 11.8 s of CPU against
 * 11.5 s as loose objects. The list starts again with each pack, and a pack ends at
 * pack.packSizeLimit, so the limit is set to hold about FILES_PER_PACK files (their raw size: the
 * packed size is smaller, a third for source code, so a pack holds a few thousand more). Measured at
 * 100,000 files of ~350 bytes: one pack 11.8 s of CPU, 4 packs 9.5 s, 15 packs 7.9 s, 29 packs 7.2 s,
 * loose 12.9 s. Not smaller than MIN_PACK_BYTES, so a tree of tiny files does not make thousands of packs.
 * (A git whose bulk check-in ignores the limit writes one pack: no slower than loose objects, and smaller.)
 */
export function bulkPackLimit({ files, bytes }: AddWeight): number {
  const average = files > 0 ? bytes / files : 0;
  return Math.max(MIN_PACK_BYTES, Math.ceil(average * FILES_PER_PACK));
}

const FILES_PER_PACK = 2_000;
const MIN_PACK_BYTES = 256 * 1024;
