import { parseClaudeEntry, type ServerSpec } from '../mcp/server-spec.js';
import { JsonTextError, scanJson } from './mcp-json-text.js';
import type { McpManageArgs } from './mcp-manage-args.js';
import type { McpScope } from './mcp-config-file.js';
import { UsageError } from './usage-error.js';

/** A server to write: its entry as it goes in the file (Claude Code's shape) and as it is read back. */
export interface NewServer {
  name: string;
  scope: McpScope;
  /** What is written under `mcpServers.<name>`. */
  entry: Record<string, unknown>;
  spec: ServerSpec;
}

/**
 * Letters, digits and hyphens, in words joined by single underscores: what every provider takes
 * in a tool name, and never `__`, which separates server from tool in `mcp__<server>__<tool>`.
 */
const NAME = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;
const MAX_NAME = 48;

export function checkServerName(name: string | undefined, usage: string): string {
  if (name === undefined || name === '') throw new UsageError(`Give the server a name: ${usage}`);
  if (!NAME.test(name) || name.length > MAX_NAME) {
    throw new UsageError(`"${name}" is not a valid server name: use letters, digits, hyphens and single underscores (not at either end), at most ${MAX_NAME} characters.`);
  }
  return name;
}

export function checkScope(scope: string | undefined): McpScope {
  if (scope === undefined || scope === 'user' || scope === 'project') return scope ?? 'user';
  if (scope === 'local') throw new UsageError('--scope local (Claude Code\'s per-project private scope) is not supported: use --scope user (your config, every workspace) or --scope project (the workspace\'s .mcp.json).');
  throw new UsageError(`--scope ${scope}: expected user or project.`);
}

const ADD_USAGE = 'vibe-agent mcp add [options] NAME -- COMMAND [ARGS...]  or  vibe-agent mcp add --transport http NAME URL';

/** `mcp add`: the entry its flags and words describe. */
export function addedServer(args: McpManageArgs): NewServer {
  const name = checkServerName(args.words[0], ADD_USAGE);
  const scope = checkScope(args.scope);
  const target = [...args.words.slice(1), ...(args.command ?? [])];
  if (target.length === 0) throw new UsageError(`Say what to run or where to connect: ${ADD_USAGE}`);
  if (args.command !== undefined && args.words.length > 1) throw new UsageError(`Put the whole command after "--": ${ADD_USAGE}`);
  const looksLikeUrl = /^https?:\/\//i.test(target[0]!);
  const transport = args.transport ?? (looksLikeUrl && args.command === undefined ? 'http' : 'stdio');
  if (transport === 'stdio') {
    if (args.headers.length) throw new UsageError('--header is for a remote server (--transport http or sse); a stdio server takes -e KEY=value.');
    const env = Object.fromEntries(args.env.map(envPair));
    const entry = { type: 'stdio', command: target[0]!, args: target.slice(1), ...(args.env.length ? { env } : {}) };
    return { name, scope, entry, spec: specOf(entry) };
  }
  if (transport !== 'http' && transport !== 'sse') throw new UsageError(`--transport ${transport}: expected stdio, http or sse.`);
  if (args.env.length) throw new UsageError('-e is for a stdio server; a remote server takes --header "Name: value".');
  if (args.command !== undefined || target.length !== 1) throw new UsageError(`A ${transport} server takes one URL and no command: vibe-agent mcp add --transport ${transport} NAME URL`);
  checkUrl(target[0]!);
  const headers = Object.fromEntries(args.headers.map(headerPair));
  const entry = { type: transport, url: target[0]!, ...(args.headers.length ? { headers } : {}) };
  return { name, scope, entry, spec: specOf(entry) };
}

const ADD_JSON_USAGE = `vibe-agent mcp add-json [--scope user|project] NAME '{"command":"node","args":["server.js"]}'`;

/** `mcp add-json NAME JSON`: the entry as given, if it is one a run would load. */
export function jsonServer(args: McpManageArgs): NewServer {
  if (args.transport !== undefined || args.env.length || args.headers.length || args.command !== undefined) {
    throw new UsageError(`add-json takes the whole entry as JSON (no --transport, -e, --header or "--"): ${ADD_JSON_USAGE}`);
  }
  const name = checkServerName(args.words[0], ADD_JSON_USAGE);
  if (args.words.length !== 2) throw new UsageError(`Give the name and the entry as one JSON argument: ${ADD_JSON_USAGE}`);
  const scope = checkScope(args.scope);
  const text = args.words[1]!;
  try {
    scanJson(text);
  } catch (error) {
    if (error instanceof JsonTextError) throw new UsageError(`The entry is not valid JSON (${error.message}).`);
    throw error;
  }
  const entry = JSON.parse(text) as unknown;
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new UsageError(`The entry must be a JSON object: ${ADD_JSON_USAGE}`);
  const spec = parseClaudeEntry(entry);
  if (typeof spec === 'string') throw new UsageError(`The entry is not one vibe-agent can start: ${spec}.`);
  if (spec.transport !== 'stdio') checkUrl(spec.url);
  return { name, scope, entry: entry as Record<string, unknown>, spec };
}

function specOf(entry: unknown): ServerSpec {
  const spec = parseClaudeEntry(entry);
  if (typeof spec === 'string') throw new UsageError(`The server's entry would not load: ${spec}.`);
  return spec;
}

function envPair(text: string): [string, string] {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/.exec(text);
  if (!match) throw new UsageError(`-e ${text}: expected KEY=value (KEY: letters, digits and underscores).`);
  return [match[1]!, match[2]!];
}

function headerPair(text: string): [string, string] {
  const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):\s*([\s\S]*)$/.exec(text);
  if (!match) throw new UsageError(`--header ${JSON.stringify(text)}: expected "Name: value".`);
  if (/[\r\n]/.test(match[2]!)) throw new UsageError(`--header ${match[1]}: a header value cannot hold a line break.`);
  return [match[1]!, match[2]!.trimEnd()];
}

/** A URL that names a host over http(s); a `${VAR}` anywhere is taken on trust (it is expanded at start). */
function checkUrl(url: string): void {
  if (url.includes('$')) return;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`${url} is not a URL (expected http://… or https://…).`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`${url}: expected an http:// or https:// URL.`);
}
