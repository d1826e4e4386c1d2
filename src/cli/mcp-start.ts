import type { McpServers } from '../mcp/mcp-servers.js';
import { collectServers } from '../mcp/server-sources.js';
import type { ServerSpec } from '../mcp/server-spec.js';
import { TrustStore } from '../mcp/trust-store.js';
import { userConfigPath, type ProjectConfig } from './config.js';
import type { Settings } from './settings.js';
import type { ToolRegistry } from '../tools/registry.js';

export interface McpSetupOptions {
  workspace: string;
  env: NodeJS.ProcessEnv;
  settings: Pick<Settings, 'mcpServers' | 'trustProjectMcp'>;
  registry: ToolRegistry;
  warn(message: string): void;
  /** Asks the user about a project server; absent without a terminal. */
  ask?: (question: string) => Promise<boolean>;
  /** The project config file as the run already read it; read again when absent. */
  project?: ProjectConfig;
  version?: string;
}

const TRUST_HINT = 'pass --trust-project-mcp or set "trustProjectMcp": true in your user config to start project servers without asking';

/**
 * Starts the configured MCP servers in the background. The user's own start at once; a
 * project's (whoever wrote the repository chose them) only once approved: asked once per
 * server and remembered for this workspace, or trusted by --trust-project-mcp. Without a
 * terminal to ask on, an unapproved one is skipped with a warning that says how to trust it.
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
  const store = new TrustStore(workspace, env);
  const unasked: string[] = [];
  for (const entry of entries) {
    if (entry.origin.scope === 'user') {
      servers.start(entry, true);
      continue;
    }
    if (options.settings.trustProjectMcp) {
      servers.start(entry, false);
      continue;
    }
    const key = `mcp:${entry.origin.file}#${entry.name}`;
    let approved = store.decision(key, entry.spec);
    if (approved === undefined && options.ask) {
      approved = await options.ask(`Start the MCP server "${entry.name}" from ${entry.origin.file}? It runs: ${describeSpec(entry.spec)}`);
      store.record(key, entry.spec, approved);
    }
    if (approved) servers.start(entry, false);
    else if (approved === false) servers.hold(entry, 'you declined it for this workspace');
    else {
      servers.hold(entry, 'not approved');
      unasked.push(`"${entry.name}" (${entry.origin.file})`);
    }
  }
  if (unasked.length) warn(`project MCP server${unasked.length === 1 ? '' : 's'} ${unasked.join(', ')} not started: not approved for this workspace (a run in a terminal asks); ${TRUST_HINT}.`);
}

/** The command or URL a server runs, as the user should see it before approving it. */
export function describeSpec(spec: ServerSpec): string {
  if (spec.transport !== 'stdio') return `${spec.transport.toUpperCase()} ${spec.url}`;
  return [spec.command, ...spec.args].map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word))).join(' ');
}
