import { statSync } from 'node:fs';
import { dirEntriesOrNone } from '../workspace/dir-entries.js';
import { join } from 'node:path';
import { isSecretPath } from '../workspace/secret-files.js';

/** Credentials under the home directory that no sandboxed command needs to read. */
const HOME_SECRETS = ['.ssh', '.gnupg', '.aws', '.docker/config.json', '.kube/config', '.netrc', '.npmrc', '.pgpass', '.pypirc', '.git-credentials', '.config/gcloud', '.config/gh/hosts.yml'];
/** A workspace scan stops here: a huge tree is not worth a slow start, and what is beyond is said in the docs. */
const MAX_ENTRIES = 20_000;
const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist', 'build', 'target', '.venv', 'venv']);

export interface HiddenPaths {
  files: string[];
  dirs: string[];
}

/** The secret files and folders to mask: the usual ones in the home directory, and any in the workspace by name. */
export function findSecretPaths(roots: string[], home: string | undefined): HiddenPaths {
  const found: HiddenPaths = { files: [], dirs: [] };
  const add = (path: string) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat?.isDirectory()) found.dirs.push(path);
    else if (stat?.isFile()) found.files.push(path);
  };
  if (home) for (const name of HOME_SECRETS) add(join(home, name));
  let budget = MAX_ENTRIES;
  const walk = (dir: string, relative: string) => {
    for (const entry of dirEntriesOrNone(dir)) {
      if (--budget < 0) return;
      const rel = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (SKIPPED_DIRS.has(entry.name)) continue;
        if (isSecretPath(`${rel}/x`) && !isSecretPath(`${relative}/x`)) found.dirs.push(join(dir, entry.name));
        else walk(join(dir, entry.name), rel);
      } else if (entry.isFile() && isSecretPath(rel)) found.files.push(join(dir, entry.name));
    }
  };
  for (const root of roots) walk(root, '');
  return found;
}
