import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Tool } from '../../../contracts/tool.js';
import { packageRoot } from '../../../eval/package-root.js';
import { createReadOutputTool } from '../../../context/read-output.js';
import { loadZod } from '../../../tools/zod-loader.js';
import { serveRegistry, type ServeOptions } from '../../../mcp/serve-registry.js';
import { createPermissionPolicy, type PermissionMode } from '../../../permissions/permission-policy.js';
import { collectSecrets, createRedactor } from '../../../session/redact.js';
import { ToolRegistry } from '../../../tools/registry.js';
import type { CliArgs } from '../../args/cli-args.js';
import { loadConfig } from '../../settings/config.js';
import type { McpArgs } from './mcp-args.js';
import { EXIT } from '../../settings/exit-codes.js';
import { UsageError } from '../../settings/usage-error.js';
import { existingDirs, shellSandbox } from '../../setup/prepare-run.js';
import { resolveSettings } from '../../setup/resolve-settings.js';
import { selectTools } from '../../setup/select-tools.js';
import { DEFAULT_TOOL_NAMES, expandToolGroups } from '../../settings/tool-names.js';
import { safeStderr } from '../../display/safe-output.js';
import { agentEnvironment } from '../../../secrets/held-secrets.js';

/** What a mode lets run without asking, and so what is offered: there is no one to ask. */
const OFFERED: Record<PermissionMode, (tool: Tool) => boolean> = {
  ask: (tool) => tool.permission.category === 'read',
  plan: (tool) => tool.permission.category === 'read',
  'auto-edit': (tool) => tool.permission.category === 'read' || tool.permission.category === 'edit',
  // No conversation reaches a served tool, so no reviewer can judge it: the first tier alone decides.
  auto: (tool) => tool.permission.category === 'read' || tool.permission.category === 'edit',
  yolo: () => true,
};

const NOTES: Record<PermissionMode, string> = {
  ask: 'Served by vibe-agent in its default permission mode: only tools that read are offered; start it with --permission-mode auto-edit (file edits) or --yes (everything) to widen that.',
  plan: 'Served by vibe-agent in plan mode: only tools that read are offered.',
  'auto-edit': 'Served by vibe-agent in auto-edit mode: tools that read and file edits are offered; shell and network tools need --yes.',
  auto: 'Served by vibe-agent in auto mode without a reviewer: tools that read and file edits are offered; an edit outside the fast path (inside the workspace, no config, CI or git files) is refused.',
  yolo: 'Served by vibe-agent with --yes: every tool is offered and runs without asking.',
};

/**
 * `vibe-agent mcp serve`: the coding tools of a run (same --tools, same confinement to the
 * workspace and --add-dir folders, same redaction), served over stdio to another MCP client.
 * Stdout is the protocol's; warnings go to stderr. Ends when the client closes stdin.
 */
export async function mcpServeCommand(args: CliArgs & McpArgs, env: NodeJS.ProcessEnv = agentEnvironment()): Promise<number> {
  const workspace = resolve(args.cwd ?? process.cwd());
  const warn = (message: string) => safeStderr.write(`vibe-agent: warning: ${message}\n`);
  const settings = resolveSettings(args, env, await loadConfig(workspace, env, warn)).values;
  const wanted = expandToolGroups(settings.tools ?? DEFAULT_TOOL_NAMES).filter((name) => name !== 'task' && name !== 'skill' && name !== 'search_docs');
  const sandbox = shellSandbox(settings, workspace, env);
  const tools = await selectTools(wanted, { extraRoots: existingDirs(settings.addDirs), allowSecrets: settings.allowSecrets, privateHosts: settings.fetchPrivate }, { passEnv: settings.passEnv, secrets: [settings.apiKey], ...(sandbox ? { sandbox } : {}) });
  const registry = new ToolRegistry(tools, { redact: createRedactor(collectSecrets(env, [settings.apiKey])) });
  // A result longer than the cap is cut with a note naming its stored id: the client pages it back with read_output.
  // That tool is made here, not from its build-time spec: its schema is read from zod.
  await loadZod();
  registry.register(createReadOutputTool(registry.outputs));
  const mode = settings.permissionMode;
  const version = (JSON.parse(readFileSync(join(packageRoot(import.meta.url), 'package.json'), 'utf8')) as { version: string }).version;
  // Stdin carries the protocol: nothing may be asked on the terminal, so what needs approval is refused.
  const authorize = createPermissionPolicy({ mode, allow: settings.permissions.allow, deny: settings.permissions.deny });
  const serving = { registry, authorize, workspace, offered: OFFERED[mode], note: NOTES[mode], version };
  if (args.mcpHttp !== undefined) return serveOverHttp(serving, args.mcpHttp, env);
  const { closed } = await serveRegistry(serving);
  await Promise.race([closed, new Promise((done) => process.stdin.once('end', done))]);
  return EXIT.answered;
}

/** `--http [HOST:]PORT`: until SIGINT/SIGTERM. The token is VIBE_MCP_TOKEN's, or a fresh one printed once. */
async function serveOverHttp(serving: ServeOptions, address: string, env: NodeJS.ProcessEnv): Promise<number> {
  const { host, port } = parseAddress(address);
  const given = env.VIBE_MCP_TOKEN;
  const token = given || randomBytes(24).toString('base64url');
  const { serveRegistryHttp } = await import('../../../mcp/serve-http.js');
  const http = await serveRegistryHttp(serving, { host, port, token });
  safeStderr.write(`vibe-agent: serving MCP (streamable HTTP) at ${http.url}${given ? ' (bearer token from VIBE_MCP_TOKEN)' : `\nbearer token: ${token}`}\n`);
  const stop = () => void http.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await http.closed;
  return EXIT.answered;
}

/** `PORT`, `HOST:PORT` or `[IPv6]:PORT`; the host defaults to 127.0.0.1. */
export function parseAddress(address: string): { host: string; port: number } {
  const match = /^(?:(\[[0-9a-fA-F:]+\]|[^:[\]]+):)?(\d{1,5})$/.exec(address.trim());
  const port = Number(match?.[2]);
  if (!match || port > 65_535) throw new UsageError(`--http takes PORT or HOST:PORT (e.g. 8765 or 127.0.0.1:8765), got "${address}".`);
  return { host: match[1]?.replace(/^\[|\]$/g, '') ?? '127.0.0.1', port };
}
