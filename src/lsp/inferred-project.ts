import { realpathSync } from 'node:fs';
import { extname } from 'node:path';
import { readOwnText } from '../workspace/read-own-file.js';
import { walkConfined } from '../workspace/walk-confined.js';
import type { LspClient } from './lsp-client.js';
import { hasWord } from './symbol-position.js';

/** At most this many files are opened into an inferred project for one name. */
export const MAX_INFERRED_FILES = 300;
/** Files walked past before the search stops (a huge repository is not read whole). */
const MAX_WALKED = 20_000;
/** A larger file is not read for the name (a bundle or a data file, not source). */
const MAX_SOURCE_BYTES = 1024 * 1024;
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
  const { files, left } = filesMentioning(query.workspace, query.extensions, query.mentions ?? ((text) => hasWord(text, name)));
  for (const file of files) {
    if (query.signal.aborted) break;
    await client.sync(file).catch(() => undefined);
  }
  const opened = `the ${files.length} workspace file${files.length === 1 ? '' : 's'} that mention "${query.name}" ${files.length === 1 ? 'was' : 'were'} opened into it`;
  const rest = left ? `; ${left} more were not (the limit is ${MAX_INFERRED_FILES} files), so answers from them may be missing` : '';
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

/** The workspace's files of these kinds that mention what is looked for (dot folders and node_modules skipped; links kept inside). */
export function filesMentioning(workspace: string, extensions: readonly string[], mentions: (text: string) => boolean): { files: string[]; left: number } {
  const files: string[] = [];
  const within = [realOrSelf(workspace)];
  let left = 0;
  let walked = 0;
  walkConfined(workspace, {
    enter: (folder) => !folder.startsWith('.') && folder !== 'node_modules',
    file: (path) => {
      if (++walked > MAX_WALKED) return false;
      if (!extensions.includes(extname(path).toLowerCase())) return;
      let text: string;
      try {
        text = readOwnText(path, { within, maxBytes: MAX_SOURCE_BYTES, refuseSecrets: true });
      } catch {
        return;
      }
      if (!mentions(text)) return;
      if (files.length < MAX_INFERRED_FILES) files.push(path);
      else left++;
    },
  });
  return { files, left };
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
