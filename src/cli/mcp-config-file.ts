import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, realpathSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ConfigError } from '../providers/create-provider.js';
import { userFileRoots } from '../workspace/own-file-roots.js';
import { readOwnText, RefusedFileError, type ReadRule } from '../workspace/read-own-file.js';
import { userConfigPath, projectConfigPath } from './config.js';
import { memberOf, removeMember, scanJson, setMember, JsonTextError, type JsonNode } from './mcp-json-text.js';

export type McpScope = 'user' | 'project';

/** A file `mcp add` and `mcp remove` write: ours, and Claude Code's `.mcp.json` (read by both agents). */
export interface ServersFile {
  path: string;
  scope: McpScope;
  format: 'vibe-agent' | 'claude-code';
  /** Where the file may really be, as a run reads it: a project's inside the workspace (a link out is refused). */
  within: ReadRule['within'];
}

/** Where `mcp add --scope` writes: the user config, or the project's `.mcp.json` as Claude Code does. */
export function fileForScope(scope: McpScope, workspace: string, env: NodeJS.ProcessEnv): ServersFile {
  return scope === 'user'
    ? { path: userConfigPath(env), scope, format: 'vibe-agent', within: userFileRoots(env) }
    : { path: join(workspace, '.mcp.json'), scope, format: 'claude-code', within: [workspace] };
}

/** Every file vibe-agent may edit that holds servers: the two `mcp add` writes, and the project's own config. */
export function editableFiles(workspace: string, env: NodeJS.ProcessEnv): ServersFile[] {
  return [fileForScope('user', workspace, env), fileForScope('project', workspace, env), { path: projectConfigPath(workspace), scope: 'project', format: 'vibe-agent', within: [workspace] }];
}

/** A servers file as read for editing: its text (absent: no file yet) and its `mcpServers`. */
export interface ReadServers {
  file: ServersFile;
  text: string | undefined;
  root: (JsonNode & { kind: 'object' }) | undefined;
  servers: Record<string, unknown>;
}

/** Far above any real config; a bigger file is refused rather than parsed. */
const MAX_BYTES = 1024 * 1024;

/**
 * Reads a servers file for editing. A file that is not JSON, not an object, or whose
 * `mcpServers` is not an object is an error naming the line and column: it is never rewritten.
 */
export function readServersFile(file: ServersFile): ReadServers {
  let text: string;
  try {
    text = readOwnText(file.path, { within: file.within, maxBytes: MAX_BYTES });
  } catch (error) {
    if (!(error instanceof RefusedFileError)) throw error;
    if (error.code === 'ENOENT') return { file, text: undefined, root: undefined, servers: {} };
    throw new ConfigError(`${file.path}: ${error.reason}; nothing was written.`);
  }
  let root: JsonNode;
  try {
    root = scanJson(text);
  } catch (error) {
    if (!(error instanceof JsonTextError)) throw error;
    throw new ConfigError(`${file.path} is not valid JSON (${error.message}); fix it first. Nothing was written.`);
  }
  if (root.kind !== 'object') throw new ConfigError(`${file.path} does not hold a JSON object; nothing was written.`);
  const servers = memberOf(root, 'mcpServers');
  if (servers && servers.value.kind !== 'object') throw new ConfigError(`"mcpServers" in ${file.path} is not an object; nothing was written.`);
  // JSON.parse keeps the last of two equal keys, an edit would change the first: the user decides which.
  for (const node of [root, servers?.value]) {
    const keys = node?.kind === 'object' ? node.members.map((member) => member.key) : [];
    const twice = keys.find((key, index) => keys.indexOf(key) !== index && (node === root ? key === 'mcpServers' : true));
    if (twice !== undefined) throw new ConfigError(`${file.path} has "${twice}" twice${node === root ? '' : ' in "mcpServers"'}; remove one first. Nothing was written.`);
  }
  const parsed = JSON.parse(text) as { mcpServers?: Record<string, unknown> };
  return { file, text, root, servers: parsed.mcpServers ?? {} };
}

/** The file's text with the server `name` set to `entry` (or removed, for undefined); every other byte kept. */
export function withServer(read: ReadServers, name: string, entry: unknown): string {
  const text = read.text ?? '{}\n';
  const root = read.root ?? (scanJson(text) as JsonNode & { kind: 'object' });
  const servers = memberOf(root, 'mcpServers')?.value as (JsonNode & { kind: 'object' }) | undefined;
  let next: string;
  if (entry === undefined) next = servers ? removeMember(text, servers, name) : text;
  else next = servers ? setMember(text, servers, 1, name, entry) : setMember(text, root, 0, 'mcpServers', { [name]: entry });
  // The edit is checked against what it should mean before anything is written.
  const expected = { ...(JSON.parse(text) as Record<string, unknown>) };
  const expectedServers = { ...read.servers };
  if (entry === undefined) delete expectedServers[name];
  else expectedServers[name] = entry;
  expected.mcpServers = expectedServers;
  if (JSON.stringify(sortedKeys(JSON.parse(next))) !== JSON.stringify(sortedKeys(expected))) throw new Error(`internal error: the edit of ${read.file.path} did not give the expected JSON; nothing was written`);
  return next;
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]));
}

/**
 * Replaces the file's contents all at once: written to a temporary file beside it (the real
 * file, when the path is a link), flushed, then renamed over it, so a crash leaves the old file
 * or the new one, never half of either. An existing file keeps its mode; a new one is private.
 */
export function writeAtomically(path: string, text: string, newMode = 0o600): void {
  let target = path;
  let mode = newMode;
  try {
    target = realpathSync(path);
    mode = statSync(target).mode & 0o777;
  } catch {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  }
  const temporary = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const fd = openSync(temporary, 'wx', mode);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(temporary, mode);
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
