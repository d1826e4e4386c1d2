import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildSystemPrompt } from '../memory/build-system-prompt.js';
import type { Provider } from '../contracts/provider.js';
import { createContextPolicy, type ContextPolicy } from '../context/policy.js';
import { ConfigError, createProvider, resolveProvider, type ResolvedProvider } from '../providers/create-provider.js';
import { PRICES, priceOf } from '../providers/pricing.js';
import { withProtocol } from '../providers/with-protocol.js';
import { setUpShellSandbox } from '../sandbox/shell-sandbox-setup.js';
import { ToolRegistry } from '../tools/registry.js';
import type { CliArgs } from './args.js';
import { loadConfig } from './config.js';
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
  /** The context policy; it offers `read_output` to `tools` once an output has been shortened. */
  context: ContextPolicy;
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
  const sandbox = shellSandbox(settings, workspace, env);
  const tools = new ToolRegistry(
    selectTools(settings.tools, { extraRoots: existingDirs(settings.addDirs), allowSecrets: settings.allowSecrets, shell: sandbox ? { sandbox } : {} }),
  );
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
  return {
    workspace,
    settings,
    resolved,
    provider,
    tools,
    context,
    system: buildSystemPrompt({ workspace, cwd: process.cwd() }),
    contextWindow: settings.contextWindow,
    maxCost: settings.maxCost,
    maxTurns: settings.maxTurns,
    temperature: settings.temperature,
  };
}

function shellSandbox(settings: Settings, workspace: string, env: NodeJS.ProcessEnv) {
  try {
    return setUpShellSandbox({
      mode: settings.sandbox,
      workspace,
      addDirs: settings.addDirs,
      network: settings.sandboxNetwork,
      ...(env.HOME ? { home: env.HOME } : {}),
      warn: (text) => process.stderr.write(`vibe-agent: warning: ${text}\n`),
    });
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

function existingDirs(dirs: string[]): string[] {
  for (const dir of dirs) {
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--add-dir ${dir}: no such directory.`);
  }
  return dirs;
}
