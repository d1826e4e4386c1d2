import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildSystemPrompt } from '../memory/build-system-prompt.js';
import type { Provider } from '../contracts/provider.js';
import { createContextPolicy, type ContextPolicy } from '../context/policy.js';
import { ConfigError, createProvider, resolveProvider, type ResolvedProvider } from '../providers/create-provider.js';
import { PRICES, priceOf } from '../providers/pricing.js';
import { withProtocol } from '../providers/with-protocol.js';
import { ToolRegistry } from '../tools/registry.js';
import type { CliArgs } from './args.js';
import type { McpServers } from '../mcp/mcp-servers.js';
import { terminalYesNo } from './ask-yes-no.js';
import { loadConfig } from './config.js';
import { startMcpServers } from './mcp-setup.js';
import { HookedRegistry } from '../hooks/hooked-registry.js';
import type { Hooks } from '../hooks/hooks.js';
import { loadHooks } from './hooks-setup.js';
import { providerSettings } from './provider-settings.js';
import { resolveSettings } from './resolve-settings.js';
import { selectTools } from './select-tools.js';
import { SETTINGS, type Settings } from './settings.js';
import { UsageError } from './usage-error.js';

export const DEFAULT_MAX_TURNS = SETTINGS.maxTurns.default;

/** Everything a run needs from flags, environment and config files, shared by one-shot and interactive mode. */
export interface PreparedRun {
  workspace: string;
  /** Every setting, with precedence applied (see settings.ts). */
  settings: Settings;
  resolved: ResolvedProvider;
  provider: Provider;
  tools: ToolRegistry;
  /**
   * The context policy; it offers `read_output` to `tools` once an output has been shortened.
   * Its prepareMessages first waits (up to mcpWaitMs) for MCP servers still starting.
   */
  context: ContextPolicy;
  /** The hooks in effect (PreToolUse and PostToolUse already run through `tools`); undefined when none. */
  hooks: Hooks | undefined;
  /** The MCP servers, starting in the background; their tools join `tools` when ready. Close them when done. */
  mcp: McpServers;
  /** The system prompt with the project memory (AGENTS.md) in it. */
  system: string;
  contextWindow: number | undefined;
  /** The per-run spending limit in US dollars (the model's price is known when set). */
  maxCost: number | undefined;
  maxTurns: number;
  temperature: number;
}

export async function prepareRun(args: CliArgs, env: NodeJS.ProcessEnv = process.env): Promise<PreparedRun> {
  const workspace = resolve(args.cwd ?? process.cwd());
  const config = loadConfig(workspace, env, (message) => process.stderr.write(`vibe-agent: warning: ${message}\n`));
  const resolvedSettings = resolveSettings(args, env, config);
  const settings = resolvedSettings.values;
  const resolved = resolveProvider(providerSettings(resolvedSettings, env));
  const warn = (message: string) => process.stderr.write(`vibe-agent: warning: ${message}\n`);
  const ask = terminalYesNo();
  const hooks = await loadHooks({ workspace, env, settings, warn, ...(ask ? { ask } : {}) });
  const selected = selectTools(settings.tools, { extraRoots: existingDirs(settings.addDirs), allowSecrets: settings.allowSecrets });
  const tools = hooks ? new HookedRegistry(hooks, selected) : new ToolRegistry(selected);
  const mcp = await startMcpServers({ workspace, env, settings, registry: tools, warn, ...(ask ? { ask } : {}) });
  const provider = withProtocol(await createProvider(resolved), settings.protocol);
  if (settings.maxCost !== undefined && !priceOf(resolved.model)) {
    throw new ConfigError(`--max-cost needs the model's price, and none is known for "${resolved.model}". Priced models: ${Object.keys(PRICES).join(', ')}.`);
  }
  const context = createContextPolicy({
    provider,
    registry: tools,
    offerReadOutput: (tool) => tools.register(tool),
    ...(settings.contextWindow !== undefined ? { contextWindow: settings.contextWindow } : {}),
  });
  // The first request waits for servers still starting, up to mcpWaitMs; later ones join at a later turn.
  let waited = false;
  const waitForServers: ContextPolicy['prepareMessages'] = async (messages, turn) => {
    if (!waited) await mcp.settled(settings.mcpWaitMs);
    waited = true;
    return context.prepareMessages(messages, turn);
  };
  return {
    workspace,
    settings,
    resolved,
    provider,
    tools,
    context: { ...context, prepareMessages: waitForServers },
    mcp,
    hooks,
    system: buildSystemPrompt({ workspace, cwd: process.cwd() }),
    contextWindow: settings.contextWindow,
    maxCost: settings.maxCost,
    maxTurns: settings.maxTurns,
    temperature: settings.temperature,
  };
}

function existingDirs(dirs: string[]): string[] {
  for (const dir of dirs) {
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--add-dir ${dir}: no such directory.`);
  }
  return dirs;
}
