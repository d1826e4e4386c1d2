import { lstat, realpath } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';

/**
 * The git repository the workspace lies in, at its top or in a subfolder: the nearest folder above
 * (or at) the workspace's real path with a plain `.git` folder owned by this user (a `.git` planted
 * above someone else's folder must not feed their checkpoints). `prefix` is the workspace's path
 * inside it, with `/` and a trailing `/` ('' at the top). A `.git` file (a linked work tree, a
 * submodule) ends the search with none: its index is elsewhere.
 */
export async function findUserRepository(workTree: string): Promise<{ gitDir: string; prefix: string } | undefined> {
  const real = await realpath(workTree).catch(() => undefined);
  if (!real) return undefined;
  for (let dir = real; ; dir = dirname(dir)) {
    const entry = await lstat(join(dir, '.git')).catch(() => undefined);
    if (entry) {
      if (!entry.isDirectory() || (process.getuid && entry.uid !== process.getuid())) return undefined;
      const inside = relative(dir, real);
      return { gitDir: join(dir, '.git'), prefix: inside === '' ? '' : `${inside.split(sep).join('/')}/` };
    }
    if (dirname(dir) === dir) return undefined;
  }
}
