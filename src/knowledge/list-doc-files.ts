import { relative, sep } from 'node:path';
import { walkConfined } from '../workspace/walk-confined.js';
import picomatch from 'picomatch';
import { isSecretPath } from '../workspace/secret-files.js';
import { DEFAULT_DOCS_GLOB, MAX_DOC_BYTES, type KnowledgeSource } from './knowledge-source.js';

export interface DocFile {
  /** Absolute path: the file's key in the index. */
  path: string;
  size: number;
  mtimeMs: number;
  /** The source (by position) and its top-level folder the file sits under: the unit of sharding. */
  folder: string;
  /** The source's folder: the file must really be inside it when it is read. */
  root: string;
}

const SKIPPED_DIRS = new Set(['.git', 'node_modules', '.hg', '.svn', 'dist', 'build', '.venv', '__pycache__']);

/**
 * The files of each source matching its glob, sorted; hidden folders, secrets and large files
 * skipped, and links leading outside the source's folder not followed.
 */
export function listDocFiles(sources: readonly KnowledgeSource[], skipped?: (path: string, reason: string) => void): DocFile[] {
  const files = new Map<string, DocFile>();
  sources.forEach((source, sourceIndex) => {
    const matches = picomatch(source.glob ?? DEFAULT_DOCS_GLOB, { dot: false });
    walkConfined(source.path, {
      enter: (name) => !SKIPPED_DIRS.has(name) && !name.startsWith('.'),
      ...(skipped ? { skipped } : {}),
      file: (path, stats) => {
        const rel = relative(source.path, path).split(sep).join('/');
        if (!matches(rel) || isSecretPath(path)) return;
        const info = stats();
        if (!info || info.size > MAX_DOC_BYTES) return;
        const slash = rel.indexOf('/');
        files.set(path, { path, size: info.size, mtimeMs: info.mtimeMs, folder: `${sourceIndex}:${slash < 0 ? '' : rel.slice(0, slash)}`, root: source.path });
      },
    });
  });
  return [...files.values()].sort((a, b) => a.path.localeCompare(b.path));
}
