import { realpathSync } from 'node:fs';
import { extname } from 'node:path';
import { readOwnTextAsync } from '../workspace/read-own-file.js';
import { walkConfined } from '../workspace/walk-confined.js';
import { LspError, type LspClient } from './lsp-client.js';
import { hasWord } from './symbol-position.js';

/** At most this many files are opened into an inferred project for one name. */
export const MAX_INFERRED_FILES = 300;
/** Script files read for the name at most (a huge repository is not read whole on one question). */
export const MAX_READ_FILES = 5000;
/** A larger file is not read for the name (a bundle or a data file, not source). */
const MAX_SOURCE_BYTES = 1024 * 1024;
/** Files read at once while looking for the name. */
const READS_AT_ONCE = 16;
/** Per running server, the names whose files were opened already (a later question about one walks nothing). */
const widened = new WeakMap<LspClient, Map<string, string>>();
/** tsserver names an inferred project this way; a configured one by its tsconfig/jsconfig path. */
const INFERRED_PREFIX = '/dev/null/inferredProject';

export interface InferredProjectQuery {
  workspace: string;
  /** The file asked about, already open in the server. */
  absolute: string;
  /** The file as the model names it. */
  shown: string;
  /** The name looked up: the files that mention it are the ones that can refer to it. */
  name: string | undefined;
  /** How a file mentions it; default: the name as a whole word. */
  mentions?(text: string): boolean;
  extensions: readonly string[];
  signal: AbortSignal;
}

/**
 * A file no tsconfig.json or jsconfig.json includes (a plain JavaScript repository) is put by
 * tsserver in an inferred project made of the open files and what they import, so a file that
 * imports the one asked about is unseen and its references are missed. The workspace's files that
 * mention the name (only those can refer to it) are opened into that project, and the answer says
 * the project was inferred. Nothing is written to the repository. '' for a configured project, or
 * a server that is not typescript-language-server.
 */
export async function widenInferredProject(client: LspClient, query: InferredProjectQuery): Promise<string> {
  if (!(await isInferred(client, query.absolute, query.signal))) return '';
  const why = `No tsconfig.json or jsconfig.json includes ${query.shown}, so the server inferred a project from open files`;
  if (!query.name) return `(${why}: references in files not open may be missing.)\n`;
  const name = query.name;
  const done = widened.get(client) ?? new Map<string, string>();
  widened.set(client, done);
  const key = `${query.mentions ? 'text' : 'word'}:${name}`;
  const before = done.get(key);
  if (before !== undefined) return `(${why}: ${before}.)\n`;
  const { files, left, unread } = await filesMentioning(query.workspace, query.extensions, query.mentions ?? ((text) => hasWord(text, name)), query.signal);
  for (const file of files) {
    if (query.signal.aborted) break;
    await client.sync(file).catch(() => undefined);
  }
  if (query.signal.aborted) throw new LspError('the question was stopped with the call', 'aborted');
  const opened = `the ${files.length} workspace file${files.length === 1 ? '' : 's'} that mention "${name}" ${files.length === 1 ? 'was' : 'were'} opened into it`;
  const rest = `${left ? `; ${left} more were not (the limit is ${MAX_INFERRED_FILES} files), so answers from them may be missing` : ''}${unread ? `; only the first ${MAX_READ_FILES} script files were looked at` : ''}`;
  done.set(key, opened + rest);
  return `(${why}: ${opened}${rest}.)\n`;
}

/** Whether tsserver holds the file in an inferred project (asked through typescript-language-server's tsserverRequest command). */
async function isInferred(client: LspClient, absolute: string, signal: AbortSignal): Promise<boolean> {
  const commands = client.capabilities.executeCommandProvider?.commands ?? [];
  if (!commands.includes('typescript.tsserverRequest')) return false;
  const info = await client
    .request<{ body?: { configFileName?: string } } | null>('workspace/executeCommand', { command: 'typescript.tsserverRequest', arguments: ['projectInfo', { file: absolute, needFileNameList: false }] }, signal)
    .catch(() => null);
  return info?.body?.configFileName?.startsWith(INFERRED_PREFIX) === true;
}

/**
 * The workspace's files of these kinds that mention what is looked for (dot folders and node_modules
 * skipped; links kept inside; each read through the confined reader, a few at a time, so the event
 * loop and the call's stop are never held up by a large tree).
 */
export async function filesMentioning(workspace: string, extensions: readonly string[], mentions: (text: string) => boolean, signal?: AbortSignal): Promise<{ files: string[]; left: number; unread: boolean }> {
  const paths: string[] = [];
  let unread = false;
  walkConfined(workspace, {
    enter: (folder) => !folder.startsWith('.') && folder !== 'node_modules',
    file: (path) => {
      if (!extensions.includes(extname(path).toLowerCase())) return;
      if (paths.length === MAX_READ_FILES) return !(unread = true);
      paths.push(path);
    },
  });
  const within = [realOrSelf(workspace)];
  const mentioned = new Array<boolean>(paths.length).fill(false);
  let next = 0;
  const reader = async () => {
    while (next < paths.length && !signal?.aborted) {
      const at = next++;
      const text = await readOwnTextAsync(paths[at]!, { within, maxBytes: MAX_SOURCE_BYTES, refuseSecrets: true }).catch(() => '');
      mentioned[at] = mentions(text);
    }
  };
  await Promise.all(Array.from({ length: READS_AT_ONCE }, reader));
  const found = paths.filter((_, at) => mentioned[at]);
  return { files: found.slice(0, MAX_INFERRED_FILES), left: Math.max(0, found.length - MAX_INFERRED_FILES), unread };
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
