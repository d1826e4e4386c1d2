import { z } from 'zod';
import type { ServerSpec } from './server-spec.js';

const stringMap = () => z.record(z.string(), z.string());

// The schemas are built at the first entry read: a run with no MCP server never builds them (start-up cost).
/** Gemini CLI's `mcpServers` entry: `url` is SSE, `httpUrl` streamable HTTP, `timeout` ms per call. */
const makeGeminiEntry = () => z.object({
  command: z.string().optional(),
  args: z.array(z.string()).default([]),
  env: stringMap().default({}),
  cwd: z.string().optional(),
  url: z.string().optional(),
  httpUrl: z.string().optional(),
  headers: stringMap().default({}),
  timeout: z.number().int().positive().optional(),
});
let geminiEntry: ReturnType<typeof makeGeminiEntry> | undefined;

export function parseGeminiEntry(raw: unknown): ServerSpec | string {
  const parsed = (geminiEntry ??= makeGeminiEntry()).safeParse(raw);
  if (!parsed.success) return 'not a Gemini CLI server entry';
  const entry = parsed.data;
  const timeout = entry.timeout !== undefined ? { toolTimeoutMs: entry.timeout } : {};
  if (entry.command) return { transport: 'stdio', command: entry.command, args: entry.args, env: entry.env, ...(entry.cwd ? { cwd: entry.cwd } : {}), ...timeout };
  if (entry.httpUrl) return { transport: 'http', url: entry.httpUrl, headers: entry.headers, ...timeout };
  if (entry.url) return { transport: 'sse', url: entry.url, headers: entry.headers, ...timeout };
  return 'needs "command", "httpUrl" or "url"';
}

/** Codex's `[mcp_servers.<name>]` table. */
const makeCodexEntry = () => z.object({
  command: z.string().optional(),
  args: z.array(z.string()).default([]),
  env: stringMap().default({}),
  cwd: z.string().optional(),
  url: z.string().optional(),
  bearer_token_env_var: z.string().optional(),
  http_headers: stringMap().default({}),
  env_http_headers: stringMap().default({}),
  enabled: z.boolean().default(true),
  startup_timeout_sec: z.number().positive().optional(),
  startup_timeout_ms: z.number().positive().optional(),
  tool_timeout_sec: z.number().positive().optional(),
});
let codexEntry: ReturnType<typeof makeCodexEntry> | undefined;

/** Undefined for an entry Codex itself would not start (`enabled = false`). */
export function parseCodexEntry(raw: unknown): ServerSpec | string | undefined {
  const parsed = (codexEntry ??= makeCodexEntry()).safeParse(raw);
  if (!parsed.success) return 'not a Codex mcp_servers table';
  const entry = parsed.data;
  if (!entry.enabled) return undefined;
  const startup = entry.startup_timeout_ms ?? (entry.startup_timeout_sec !== undefined ? entry.startup_timeout_sec * 1000 : undefined);
  const timeouts = {
    ...(startup !== undefined ? { startupTimeoutMs: startup } : {}),
    ...(entry.tool_timeout_sec !== undefined ? { toolTimeoutMs: entry.tool_timeout_sec * 1000 } : {}),
  };
  if (entry.command) return { transport: 'stdio', command: entry.command, args: entry.args, env: entry.env, ...(entry.cwd ? { cwd: entry.cwd } : {}), ...timeouts };
  if (!entry.url) return 'needs "command" or "url"';
  // Codex names variables where we write `${VAR}`: the expansion then works the same way.
  const headers: Record<string, string> = { ...entry.http_headers };
  for (const [header, variable] of Object.entries(entry.env_http_headers)) headers[header] = `\${${variable}}`;
  if (entry.bearer_token_env_var) headers.Authorization = `Bearer \${${entry.bearer_token_env_var}}`;
  return { transport: 'http', url: entry.url, headers, ...timeouts };
}
