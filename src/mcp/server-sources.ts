import { readOwnText, RefusedFileError, type ReadRule } from '../workspace/read-own-file.js';
import { userFileRoots } from '../workspace/own-file-roots.js';
import { parseJsonText } from '../contracts/config-text.js';
import { parseTomlText } from '../contracts/toml-text.js';
import { parseCodexEntry, parseGeminiEntry } from './foreign-entries.js';
import { foreignServerFiles } from './foreign-server-files.js';
import { parseClaudeEntry, type ServerEntry, type ServerOrigin, type ServerSpec } from './server-spec.js';

export interface SourceOptions {
  workspace: string;
  env: NodeJS.ProcessEnv;
  /** `mcpServers` of our user config and of the project's `.vibe-agent/config.json`. */
  userServers?: Record<string, unknown>;
  userConfigFile: string;
  projectServers?: Record<string, unknown>;
  projectConfigFile: string;
  warn(message: string): void;
}

type ParseEntry = (raw: unknown) => ServerSpec | string | undefined;

/**
 * Every configured server, from our own config files and, read unchanged, from the files other
 * agents use: Claude Code's `.mcp.json`, Gemini CLI's `settings.json`, Codex's `config.toml`.
 * The first entry with a name wins (ours first, then the user's files, then the project's); a
 * later one with the same name is reported and left out.
 */
export function collectServers(options: SourceOptions): ServerEntry[] {
  const { workspace, warn } = options;
  const files = foreignServerFiles(workspace, options.env);
  const user = userFileRoots(options.env);
  const project = [workspace];
  const sources: Array<{ origin: ServerOrigin; read: () => Record<string, unknown> | undefined; parse: ParseEntry }> = [
    { origin: { scope: 'user', file: options.userConfigFile, format: 'vibe-agent' }, read: () => options.userServers, parse: parseClaudeEntry },
    { origin: { scope: 'user', file: files.userGemini, format: 'gemini-cli' }, read: () => jsonServers(files.userGemini, 'mcpServers', user, warn), parse: parseGeminiEntry },
    { origin: { scope: 'user', file: files.userCodex, format: 'codex' }, read: () => tomlServers(files.userCodex, user, warn), parse: parseCodexEntry },
    { origin: { scope: 'project', file: options.projectConfigFile, format: 'vibe-agent' }, read: () => options.projectServers, parse: parseClaudeEntry },
    { origin: { scope: 'project', file: files.projectClaude, format: 'claude-code' }, read: () => jsonServers(files.projectClaude, 'mcpServers', project, warn), parse: parseClaudeEntry },
    { origin: { scope: 'project', file: files.projectGemini, format: 'gemini-cli' }, read: () => jsonServers(files.projectGemini, 'mcpServers', project, warn), parse: parseGeminiEntry },
    { origin: { scope: 'project', file: files.projectCodex, format: 'codex' }, read: () => tomlServers(files.projectCodex, project, warn), parse: parseCodexEntry },
  ];
  const entries: ServerEntry[] = [];
  const seenFiles = new Set<string>();
  for (const { origin, read, parse } of sources) {
    // In a workspace that is the home directory, the user's files and the project's are the same file.
    if (seenFiles.has(origin.file)) continue;
    seenFiles.add(origin.file);
    for (const [name, raw] of Object.entries(read() ?? {})) {
      const spec = parse(raw);
      if (spec === undefined) continue;
      if (typeof spec === 'string') {
        warn(`MCP server "${name}" in ${origin.file} skipped: ${spec}.`);
        continue;
      }
      const earlier = entries.find((entry) => entry.name === name);
      if (earlier) {
        warn(`MCP server "${name}" in ${origin.file} skipped: ${earlier.origin.file} already defines a server of that name.`);
        continue;
      }
      entries.push({ name, spec, origin });
    }
  }
  return entries;
}

/** Far above any real settings file. */
const MAX_SERVER_FILE_BYTES = 1024 * 1024;

function readText(path: string, within: ReadRule['within'], warn: (message: string) => void): string | undefined {
  try {
    return readOwnText(path, { within, maxBytes: MAX_SERVER_FILE_BYTES });
  } catch (error) {
    if (!(error instanceof RefusedFileError) || error.code !== 'ENOENT') warn(`${(error as Error).message.replace(/\.$/, '')}, so its MCP servers are skipped.`);
    return undefined;
  }
}

function asTable(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function jsonServers(path: string, key: string, within: ReadRule['within'], warn: (message: string) => void): Record<string, unknown> | undefined {
  const text = readText(path, within, warn);
  if (text === undefined) return undefined;
  try {
    return asTable(asTable(parseJsonText(text))?.[key]);
  } catch (error) {
    warn(`${path} is not valid JSON (${(error as Error).message}); its MCP servers are skipped.`);
    return undefined;
  }
}

function tomlServers(path: string, within: ReadRule['within'], warn: (message: string) => void): Record<string, unknown> | undefined {
  const text = readText(path, within, warn);
  if (text === undefined) return undefined;
  try {
    return asTable(asTable(parseTomlText(text))?.mcp_servers);
  } catch (error) {
    warn(`${path} is not valid TOML (${(error as Error).message}); its MCP servers are skipped.`);
    return undefined;
  }
}
