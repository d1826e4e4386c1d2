import { resolve } from 'node:path';
import { ToolRegistry } from '../tools/registry.js';
import type { CliArgs } from './args.js';
import { loadConfig, readProjectConfig } from './config.js';
import { EXIT } from './exit-codes.js';
import { startMcpServers } from './mcp-setup.js';
import { offeringsTable, serverTable } from './mcp-table.js';
import { resolveSettings } from './resolve-settings.js';
import { UsageError } from './usage-error.js';
import { MCP_USAGE } from './mcp-usage.js';
import { safeStderr, safeStdout } from './display/safe-output.js';
import { agentEnvironment } from '../secrets/held-secrets.js';

/** Long enough for any server's own start-up limit (30 s by default) to decide first. */
const LIST_WAIT_MS = 60_000;

/**
 * `vibe-agent mcp list`: starts every server a run would start (it asks nothing: a project
 * server not yet approved shows as such), waits for each to be ready or to fail, prints the table.
 */
export async function mcpCommand(args: CliArgs, env: NodeJS.ProcessEnv = agentEnvironment()): Promise<number> {
  const words = args.mcpArgs ?? [];
  if (args.mcpManage) return mcpManageCommand(args, env);
  if (words[0] === 'serve' && words.length === 1) {
    const { mcpServeCommand } = await import('./mcp-serve-command.js');
    return mcpServeCommand(args, env);
  }
  if (words[0] !== 'list' || words.length > 1) throw new UsageError(MCP_USAGE);
  const workspace = resolve(args.cwd ?? process.cwd());
  const warnings: string[] = [];
  const warn = (message: string) => warnings.push(message);
  const project = await readProjectConfig(workspace, warn);
  const settings = resolveSettings(args, env, await loadConfig(workspace, env, warn, project)).values;
  const servers = await startMcpServers({ workspace, env, settings, registry: new ToolRegistry(), warn, project });
  try {
    await servers.settled(LIST_WAIT_MS);
    const statuses = servers.status();
    safeStdout.write(`${[...serverTable(statuses), ...offeringsTable(servers)].join('\n')}\n`);
    for (const message of warnings.filter((text) => !text.includes('did not start'))) safeStderr.write(`vibe-agent: warning: ${message}\n`);
    return statuses.some((server) => server.state === 'failed') ? EXIT.providerError : EXIT.answered;
  } finally {
    await servers.close();
  }
}

/** `mcp add|add-json|remove|get`, and `mcp --help`. */
async function mcpManageCommand(args: CliArgs, env: NodeJS.ProcessEnv): Promise<number> {
  switch (args.mcpManage!.action) {
    case 'help':
      safeStdout.write(`${MCP_USAGE}\n`);
      return EXIT.answered;
    case 'add':
    case 'add-json':
      return (await import('./mcp-add-command.js')).mcpAddCommand(args, env);
    case 'remove':
      return (await import('./mcp-remove-command.js')).mcpRemoveCommand(args, env);
    case 'get':
      return (await import('./mcp-get-command.js')).mcpGetCommand(args, env);
  }
}
