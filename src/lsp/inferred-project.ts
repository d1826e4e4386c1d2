import { filesMentioning, filesMentioningOnce, MAX_INFERRED_FILES, MAX_READ_FILES, type Mentioning } from './files-mentioning.js';
import { LspError, type LspClient } from './lsp-client.js';
import { hasWord } from './symbol-position.js';

/** Per running server, the names whose files were opened already (a later question about one opens nothing more). */
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
  const { files, left, unread } = await mentioningFiles(client, query);
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

/** The workspace's script files that mention the name (as a whole word, unless `mentions` says otherwise), found once per server. */
export async function mentioningFiles(client: LspClient, query: Pick<InferredProjectQuery, 'workspace' | 'name' | 'mentions' | 'extensions' | 'signal'>): Promise<Mentioning> {
  const name = query.name ?? '';
  const key = `${query.mentions ? 'text' : 'word'}:${name}`;
  try {
    return await filesMentioningOnce(client, key, () => filesMentioning(query.workspace, query.extensions, query.mentions ?? ((text) => hasWord(text, name)), query.signal));
  } catch (error) {
    if (query.signal.aborted) throw new LspError('the question was stopped with the call', 'aborted');
    throw error;
  }
}
