import { z } from 'zod';

/** Where a server's entry was found: the user's own files start at once, a project's only once approved. */
export interface ServerOrigin {
  scope: 'user' | 'project';
  /** The file, as a path. */
  file: string;
  /** Whose format it is in, for messages ("Claude Code .mcp.json", "Codex config.toml"). */
  format: 'vibe-agent' | 'claude-code' | 'gemini-cli' | 'codex';
}

/** One server, in our terms, whatever file it came from; values still hold their `${VAR}`s. */
export type ServerTransport =
  | { transport: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { transport: 'http' | 'sse'; url: string; headers: Record<string, string> };

export type ServerSpec = ServerTransport & {
  /** Per-call time limit in ms; the registry's default when absent. */
  toolTimeoutMs?: number;
  /** How long connecting and listing tools may take, in ms. */
  startupTimeoutMs?: number;
};

export interface ServerEntry {
  name: string;
  spec: ServerSpec;
  origin: ServerOrigin;
}

/** Claude Code's `.mcp.json` entry (also our config's `mcpServers`), with an optional `timeout` in ms. */
const makeClaudeEntry = () => {
  const stringMap = z.record(z.string(), z.string());
  return z.union([
    z.object({ type: z.literal('stdio').optional(), command: z.string().min(1), args: z.array(z.string()).default([]), env: stringMap.default({}), cwd: z.string().optional(), timeout: z.number().int().positive().optional() }),
    z.object({ type: z.enum(['http', 'sse', 'streamable-http']), url: z.string().min(1), headers: stringMap.default({}), timeout: z.number().int().positive().optional() }),
  ]);
};
// Built at the first entry read: a run with no MCP server never builds it (start-up cost).
let claudeEntry: ReturnType<typeof makeClaudeEntry> | undefined;

/** Reads one entry in Claude Code's shape; a string says what is wrong with it. */
export function parseClaudeEntry(raw: unknown): ServerSpec | string {
  const parsed = (claudeEntry ??= makeClaudeEntry()).safeParse(raw);
  if (!parsed.success) return 'expected { "command", "args", "env", "cwd" } or { "type": "http" | "sse", "url", "headers" }';
  const entry = parsed.data;
  const timeout = entry.timeout !== undefined ? { toolTimeoutMs: entry.timeout } : {};
  if ('command' in entry) return { transport: 'stdio', command: entry.command, args: entry.args, env: entry.env, ...(entry.cwd !== undefined ? { cwd: entry.cwd } : {}), ...timeout };
  return { transport: entry.type === 'sse' ? 'sse' : 'http', url: entry.url, headers: entry.headers, ...timeout };
}
