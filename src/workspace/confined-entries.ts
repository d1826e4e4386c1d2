import { realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { dirEntriesOrNone } from './dir-entries.js';
import { confinedRealPath, isWithin, realRoots } from './read-own-file.js';
import { isSecretPath } from './secret-files.js';

export interface ConfinedEntry {
  name: string;
  isDir: boolean;
}

/**
 * A folder's entries as a listing shown to the user or a model may name them (completions, a
 * reviewer's `list:`): the folder resolved to where it really is, which must lie inside `root`
 * (a link `vendor -> ../outside` lists nothing); an entry that is a link leading outside `root`,
 * a link to nothing, or a file that looks like a secret (as named or where it leads) is left out.
 * A folder that cannot be read lists nothing.
 */
export function confinedEntries(root: string, dir: string): ConfinedEntry[] {
  let real: string;
  try {
    real = confinedRealPath(join(root, dir), [root]);
  } catch {
    return [];
  }
  const realRoot = realRoots([root])[0]!;
  const entries: ConfinedEntry[] = [];
  for (const dirent of dirEntriesOrNone(real)) {
    const path = join(real, dirent.name);
    if (isSecretPath(path)) continue;
    if (!dirent.isSymbolicLink()) {
      entries.push({ name: dirent.name, isDir: dirent.isDirectory() });
      continue;
    }
    const target = linkTarget(path);
    if (target === undefined || !isWithin(realRoot, target.real) || isSecretPath(target.real)) continue;
    entries.push({ name: dirent.name, isDir: target.isDir });
  }
  return entries;
}

function linkTarget(path: string): { real: string; isDir: boolean } | undefined {
  try {
    const real = realpathSync(path);
    return { real, isDir: statSync(real).isDirectory() };
  } catch {
    return undefined;
  }
}
