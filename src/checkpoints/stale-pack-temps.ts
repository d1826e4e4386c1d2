import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Removes the half-written packs a killed `git add` left in the store (`objects/pack/tmp_pack_*`, and
 * the `tmp_idx_*` / `tmp_rev_*` it writes just before renaming a finished pack into place). git never
 * uses nor removes them, so each would stay for good, as big as the part of the pack written.
 *
 * Which are stale: the only git of ours that writes packs into the store is addAll's `git add`, on
 * the store's own index, and `git add` takes `index.lock` before it writes any object and keeps it
 * until its packs are finished and renamed. So the temporary files are listed first, and then, if
 * no `index.lock` exists, no git that wrote one of those files is still running (it would still hold
 * the lock): they are removed. A git that starts after the listing writes files of other names
 * (mkstemp's random ones), which this leaves alone. While `index.lock` exists (an add running in this
 * or another process, or a lock a killed git left), nothing is removed. The lock is only looked at,
 * never taken, so no other process's git fails on it.
 */
export async function dropStalePackTemps(gitDir: string): Promise<string[]> {
  const packDir = join(gitDir, 'objects', 'pack');
  const temps = (await readdir(packDir).catch(() => [] as string[])).filter((name) => PACK_TEMP.test(name));
  if (!temps.length || existsSync(join(gitDir, 'index.lock'))) return [];
  await Promise.all(temps.map((name) => rm(join(packDir, name), { force: true })));
  return temps;
}

const PACK_TEMP = /^tmp_(pack|idx|rev)_/;
