import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Tool } from '../contracts/tool.js';
import { packageRoot } from '../eval/package-root.js';
import { serveRegistry } from '../mcp/serve-registry.js';
import { createPermissionPolicy, type PermissionMode } from '../permissions/permission-policy.js';
import { collectSecrets, createRedactor } from '../session/redact.js';
import { ToolRegistry } from '../tools/registry.js';
import type { CliArgs } from './args.js';
import { loadConfig } from './config.js';
import { EXIT } from './exit-codes.js';
import { existingDirs, shellSandbox } from './prepare-run.js';
import { resolveSettings } from './resolve-settings.js';
import { selectTools } from './select-tools.js';
import { DEFAULT_TOOL_NAMES, expandToolGroups } from './tool-names.js';
import { safeStderr } from './display/safe-output.js';
import { agentEnvironment } from '../sandbox/held-secrets.js';

/** What a mode lets run without asking, and so what is offered: there is no one to ask. */
const OFFERED: Record<PermissionMode, (tool: Tool) => boolean> = {
  ask: (tool) => tool.permission.category === 'read',
  plan: (tool) => tool.permission.category === 'read',
  'auto-edit': (tool) => tool.permission.category === 'read' || tool.permission.category === 'edit',
  yolo: () => true,
};

const NOTES: Record<PermissionMode, string> = {
  ask: 'Served by vibe-agent in its default permission mode: only tools that read are offered; start it with --permission-mode auto-edit (file edits) or --yes (everything) to widen that.',
  plan: 'Served by vibe-agent in plan mode: only tools that read are offered.',
  'auto-edit': 'Served by vibe-agent in auto-edit mode: tools that read and file edits are offered; shell and network tools need --yes.',
  yolo: 'Served by vibe-agent with --yes: every tool is offered and runs without asking.',
};

/**
 * `vibe-agent mcp serve`: the coding tools of a run (same --tools, same confinement to the
 * workspace and --add-dir folders, same redaction), served over stdio to another MCP client.
 * Stdout is the protocol's; warnings go to stderr. Ends when the client closes stdin.
 */
export async function mcpServeCommand(args: CliArgs, env: NodeJS.ProcessEnv = agentEnvironment()): Promise<number> {
  const workspace = resolve(args.cwd ?? process.cwd());
  const warn = (message: string) => safeStderr.write(`vibe-agent: warning: ${message}\n`);
  const settings = resolveSettings(args, env, await loadConfig(workspace, env, warn)).values;
  const wanted = expandToolGroups(settings.tools ?? DEFAULT_TOOL_NAMES).filter((name) => name !== 'task' && name !== 'skill' && name !== 'search_docs');
  const sandbox = shellSandbox(settings, workspace, env);
  const tools = await selectTools(wanted, { extraRoots: existingDirs(settings.addDirs), allowSecrets: settings.allowSecrets, privateHosts: settings.fetchPrivate }, { passEnv: settings.passEnv, secrets: [settings.apiKey], ...(sandbox ? { sandbox } : {}) });
  const registry = new ToolRegistry(tools, { redact: createRedactor(collectSecrets(env, [settings.apiKey])) });
  const mode = settings.permissionMode;
  const version = (JSON.parse(readFileSync(join(packageRoot(import.meta.url), 'package.json'), 'utf8')) as { version: string }).version;
  // Stdin carries the protocol: nothing may be asked on the terminal, so what needs approval is refused.
  const authorize = createPermissionPolicy({ mode, allow: settings.permissions.allow, deny: settings.permissions.deny });
  const { closed } = await serveRegistry({ registry, authorize, workspace, offered: OFFERED[mode], note: NOTES[mode], version });
  await Promise.race([closed, new Promise((done) => process.stdin.once('end', done))]);
  return EXIT.answered;
}
