import { statSync } from 'node:fs';
import { dirEntriesOrNone } from '../workspace/dir-entries.js';
import { join, relative, sep } from 'node:path';
import picomatch from 'picomatch';
import { isSecretPath } from '../workspace/secret-files.js';
import { DEFAULT_DOCS_GLOB, type KnowledgeSource } from './knowledge-source.js';

export interface DocFile {
  /** Absolute path: the file's key in the index. */
  path: string;
  size: number;
  mtimeMs: number;
  /** The source (by position) and its top-level folder the file sits under: the unit of sharding. */
  folder: string;
}

/** Files larger than this are left out: generated bundles and dumps, not documentation. */
export const MAX_DOC_BYTES = 2 * 1024 * 1024;
const SKIPPED_DIRS = new Set(['.git', 'node_modules', '.hg', '.svn', 'dist', 'build', '.venv', '__pycache__']);

/** The files of each source matching its glob, sorted; hidden folders, secrets and large files skipped. */
export function listDocFiles(sources: readonly KnowledgeSource[]): DocFile[] {
  const files = new Map<string, DocFile>();
  sources.forEach((source, sourceIndex) => {
    const matches = picomatch(source.glob ?? DEFAULT_DOCS_GLOB, { dot: false });
    const walk = (dir: string) => {
      for (const entry of dirEntriesOrNone(dir)) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith('.')) walk(path);
          continue;
        }
        if (!entry.isFile()) continue;
        const rel = relative(source.path, path).split(sep).join('/');
        if (!matches(rel) || isSecretPath(path)) continue;
        const info = statSync(path, { throwIfNoEntry: false });
        if (!info || info.size > MAX_DOC_BYTES) continue;
        const slash = rel.indexOf('/');
        files.set(path, { path, size: info.size, mtimeMs: info.mtimeMs, folder: `${sourceIndex}:${slash < 0 ? '' : rel.slice(0, slash)}` });
      }
    };
    walk(source.path);
  });
  return [...files.values()].sort((a, b) => a.path.localeCompare(b.path));
}
