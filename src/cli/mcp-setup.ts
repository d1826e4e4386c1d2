import { foreignServerFiles } from '../mcp/foreign-server-files.js';
import { DeferredMcpServers, type RunMcpServers } from '../mcp/run-mcp-servers.js';
import { anyPresent } from '../workspace/any-present.js';
import { readProjectConfig } from './config.js';
import { mcpOAuthOptions } from './mcp-oauth-options.js';
import type { McpSetupOptions } from './mcp-start.js';

export type { McpSetupOptions } from './mcp-start.js';

/**
 * The run's MCP servers, starting in the background (see mcp-start.ts for which start). The MCP
 * client (its SDK, transports and OAuth) loads only when a server is configured somewhere: a run
 * without any never compiles it.
 */
export async function startMcpServers(options: McpSetupOptions): Promise<RunMcpServers> {
  const { workspace, env, warn } = options;
  const create = async () => {
    const { McpServers } = await import('../mcp/mcp-servers.js');
    const oauth = mcpOAuthOptions(env, options.ask !== undefined && process.stderr.isTTY === true, warn);
    return new McpServers({ registry: options.registry, warn, env, oauth, ...(options.version ? { clientVersion: options.version } : {}) });
  };
  const project = options.project ?? (await readProjectConfig(workspace));
  const named = (servers: Record<string, unknown> | undefined) => Object.keys(servers ?? {}).length > 0;
  const configured = named(options.settings.mcpServers) || named(project.config.mcpServers) || anyPresent(Object.values(foreignServerFiles(workspace, env)));
  if (!configured) return new DeferredMcpServers(create);
  const servers = await create();
  const { startConfiguredServers } = await import('./mcp-start.js');
  await startConfiguredServers(servers, options, project);
  return servers;
}
