import type { McpServers } from '../../mcp/mcp-servers.js';
import { collectServers } from '../../mcp/server-sources.js';
import { admitProjectServer } from '../../trust/admit-project-server.js';
import type { AskTrust } from '../../trust/trust-question.js';
import { TrustStore } from '../../trust/trust-store.js';
import { userConfigPath, type ProjectConfig } from '../settings/config.js';
import type { Settings } from '../settings/settings.js';
import type { ToolRegistry } from '../../tools/registry.js';

export interface McpSetupOptions {
  workspace: string;
  env: NodeJS.ProcessEnv;
  settings: Pick<Settings, 'mcpServers' | 'trustProjectMcp' | 'mcpPassEnv'>;
  registry: ToolRegistry;
  warn(message: string): void;
  /** Asks the user about a project server; absent without a terminal. */
  ask?: AskTrust;
  /** The project config file as the run already read it; read again when absent. */
  project?: ProjectConfig;
  version?: string;
}

const TRUST_HINT = 'pass --trust-project-mcp or set "trustProjectMcp": true in your user config to start project servers without asking';

/**
 * Starts the configured MCP servers in the background. The user's own start at once; a
 * project's (whoever wrote the repository chose them) only once approved: asked once per
 * server and remembered for this workspace, or trusted by --trust-project-mcp (see
 * admitProjectServer). Without a terminal to ask on, an unapproved one is skipped with a
 * warning that says how to trust it.
 */
export async function startConfiguredServers(servers: McpServers, options: McpSetupOptions, project: ProjectConfig): Promise<void> {
  const { workspace, env, warn } = options;
  const entries = collectServers({
    workspace,
    env,
    userServers: options.settings.mcpServers,
    userConfigFile: userConfigPath(env),
    projectServers: project.config.mcpServers,
    projectConfigFile: project.file,
    warn,
  });
  const admit = { store: new TrustStore(workspace, env), ask: options.ask, trustAll: options.settings.trustProjectMcp, passEnv: options.settings.mcpPassEnv, userConfigFile: userConfigPath(env) };
  const unasked: string[] = [];
  for (const entry of entries) {
    // Named like a server already there: start refuses it and says why, so it is not asked about.
    if (entry.origin.scope === 'user' || servers.clashes(entry)) {
      servers.start(entry, entry.origin.scope === 'user');
      continue;
    }
    const admission = await admitProjectServer(entry, admit);
    if (admission.start) {
      servers.start(entry, false);
      continue;
    }
    servers.hold(entry, admission.reason);
    if (admission.why === 'refused') warn(`project MCP server "${entry.name}" (${entry.origin.file}) not started: ${admission.reason}.`);
    if (admission.why === 'unasked') unasked.push(`"${entry.name}" (${entry.origin.file})`);
  }
  if (unasked.length) warn(`project MCP server${unasked.length === 1 ? '' : 's'} ${unasked.join(', ')} not started: not approved for this workspace (a run in a terminal asks); ${TRUST_HINT}.`);
}
