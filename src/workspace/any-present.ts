import { lstatSync } from 'node:fs';

/**
 * Whether any of the files may be there: only "no such file" counts as absent, so a file that
 * cannot be read still reaches the code that reads it (and warns about it).
 */
export function anyPresent(paths: Iterable<string>): boolean {
  for (const path of paths) {
    try {
      lstatSync(path);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return true;
    }
  }
  return false;
}
