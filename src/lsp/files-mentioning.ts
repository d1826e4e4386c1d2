import { realpathSync } from 'node:fs';
import { extname } from 'node:path';
import { walkFiles } from '../tools/coding/search/gitignore-walker.js';
import { readOwnTextAsync } from '../workspace/read-own-file.js';

/** At most this many files are taken for one name (opened into an inferred project, followed for CommonJS). */
export const MAX_INFERRED_FILES = 300;
/** Script files read for the name at most (a huge repository is not read whole on one question). */
export const MAX_READ_FILES = 5000;
/** A larger file is not read for the name (a bundle or a data file, not source). */
const MAX_SOURCE_BYTES = 1024 * 1024;
/** Files read at once while looking for the name. */
const READS_AT_ONCE = 16;

export interface Mentioning {
  /** Absolute paths, in no particular order. */
  files: string[];
  /** Files that mention it past MAX_INFERRED_FILES, not taken. */
  left: number;
  /** Whether the walk stopped at MAX_READ_FILES script files. */
  unread: boolean;
}

/** Per running server, the files found per name: a later question about a name walks nothing. */
const found = new WeakMap<object, Map<string, Promise<Mentioning>>>();

/** `filesMentioning`, once per `owner` (a running server) and `key` (what is looked for, and how). */
export function filesMentioningOnce(owner: object, key: string, find: () => Promise<Mentioning>): Promise<Mentioning> {
  const known = found.get(owner) ?? new Map<string, Promise<Mentioning>>();
  found.set(owner, known);
  let finding = known.get(key);
  if (!finding) {
    known.set(key, (finding = find()));
    // A walk stopped with its call is done again next time.
    finding.catch(() => known.delete(key));
  }
  return finding;
}

/**
 * The workspace's files of these kinds that mention what is looked for, as `list_files` and `grep`
 * see the tree: what `.gitignore` (and `.ignore`, `.rgignore`) exclude is skipped, so a built copy
 * (`dist/`) adds no false places; so are node_modules and dot folders, and links are not followed.
 * Each file is read through the confined reader, a few at a time, so the event loop and the call's
 * stop are never held up by a large tree.
 */
export async function filesMentioning(workspace: string, extensions: readonly string[], mentions: (text: string) => boolean, signal: AbortSignal): Promise<Mentioning> {
  const paths: string[] = [];
  let unread = false;
  const enough = new AbortController();
  await walkFiles(workspace, {
    signal: AbortSignal.any([signal, enough.signal]),
    enter: (name) => !name.startsWith('.'),
    onFile: (_, absolute) => {
      if (!extensions.includes(extname(absolute).toLowerCase()) || unread) return;
      if (paths.length === MAX_READ_FILES) {
        unread = true;
        enough.abort();
      } else paths.push(absolute);
    },
  }).catch((error: unknown) => {
    if (!unread || signal.aborted) throw error;
  });
  paths.sort();
  const within = [realOrSelf(workspace)];
  const mentioned = new Array<boolean>(paths.length).fill(false);
  let next = 0;
  const reader = async () => {
    while (next < paths.length && !signal.aborted) {
      const at = next++;
      const text = await readOwnTextAsync(paths[at]!, { within, maxBytes: MAX_SOURCE_BYTES, refuseSecrets: true }).catch(() => '');
      mentioned[at] = mentions(text);
    }
  };
  await Promise.all(Array.from({ length: READS_AT_ONCE }, reader));
  signal.throwIfAborted();
  const files = paths.filter((_, at) => mentioned[at]);
  return { files: files.slice(0, MAX_INFERRED_FILES), left: Math.max(0, files.length - MAX_INFERRED_FILES), unread };
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
