import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildSystemPrompt } from '../memory/build-system-prompt.js';
import type { Provider } from '../contracts/provider.js';
import { ConfigError, createProvider, resolveProvider, type ResolvedProvider } from '../providers/create-provider.js';
import { PRESET_ALIASES, PRESETS } from '../providers/presets.js';
import { PRICES, priceOf } from '../providers/pricing.js';
import { withProtocol } from '../providers/with-protocol.js';
import { ToolRegistry } from '../tools/registry.js';
import { UsageError, type CliArgs } from './args.js';
import { loadConfig, type FileConfig } from './config.js';
import { selectTools } from './select-tools.js';

export const DEFAULT_MAX_TURNS = 50;

/** Everything a run needs from flags, environment and config files, shared by one-shot and interactive mode. */
export interface PreparedRun {
  workspace: string;
  config: FileConfig;
  resolved: ResolvedProvider;
  provider: Provider;
  tools: ToolRegistry;
  /** The system prompt with the project memory (AGENTS.md) in it. */
  system: string;
  contextWindow: number | undefined;
  /** The per-run spending limit in US dollars (the model's price is known when set). */
  maxCost: number | undefined;
  maxTurns: number;
  temperature: number;
}

/** Flags beat environment, environment beats config files, config files beat defaults. */
export async function prepareRun(args: CliArgs): Promise<PreparedRun> {
  const workspace = resolve(args.cwd ?? process.cwd());
  const config = loadConfig(workspace, process.env, (message) => process.stderr.write(`vibe-agent: warning: ${message}\n`));
  const providerName = args.provider ?? process.env.VIBE_PROVIDER ?? config.provider;
  // A config's model and endpoint go with its provider; another one picked by flag or env gets its own defaults.
  const fromConfig = config.provider === undefined || presetName(config.provider) === presetName(providerName ?? 'openai');
  const envBaseUrl = PRESETS[presetName(providerName ?? 'openai')]?.baseUrlVariable;
  // Environment beats config files: the preset's base-URL variable wins over "baseUrl".
  const configBaseUrl = fromConfig && !(envBaseUrl && process.env[envBaseUrl]) ? config.baseUrl : undefined;
  const resolved = resolveProvider({
    provider: providerName,
    model: args.model ?? process.env.VIBE_MODEL ?? (fromConfig ? config.model : undefined),
    apiKey: args.apiKey,
    ...(args.baseUrl !== undefined ? { baseUrl: args.baseUrl } : {}),
    ...(configBaseUrl !== undefined ? { configBaseUrl } : {}),
    ...(args.thinking !== undefined ? { thinking: args.thinking } : {}),
  });
  checkBaseUrl(resolved.baseURL, args.baseUrl !== undefined ? '--base-url' : configBaseUrl !== undefined ? '"baseUrl" in the config file' : (resolved.preset.baseUrlVariable ?? 'the base URL'));
  const tools = new ToolRegistry(
    selectTools(args.tools ?? config.tools, {
      extraRoots: existingDirs([...(config.addDirs ?? []).map((dir) => resolve(workspace, dir)), ...args.addDirs.map((dir) => resolve(dir))]),
      allowSecrets: args.allowSecrets || config.allowSecrets === true,
    }),
  );
  const provider = withProtocol(await createProvider(resolved), args.protocol);
  const maxCost = args.maxCost ?? config.maxCost;
  if (maxCost !== undefined && !priceOf(resolved.model)) {
    throw new ConfigError(`--max-cost needs the model's price, and none is known for "${resolved.model}". Priced models: ${Object.keys(PRICES).join(', ')}.`);
  }
  return {
    workspace,
    config,
    resolved,
    provider,
    tools,
    system: buildSystemPrompt({ workspace, cwd: process.cwd() }),
    contextWindow: args.contextWindow ?? config.contextWindow,
    maxCost,
    maxTurns: args.maxTurns ?? config.maxTurns ?? DEFAULT_MAX_TURNS,
    temperature: args.temperature ?? config.temperature ?? 0,
  };
}

/** A URL the SDK cannot use would otherwise surface as a network error, retried four times. */
function checkBaseUrl(url: string, source: string): void {
  let protocol: string | undefined;
  try {
    protocol = new URL(url).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== 'http:' && protocol !== 'https:') throw new UsageError(`${source} must be an http:// or https:// URL, e.g. http://127.0.0.1:11434/v1, got "${url}".`);
}

function presetName(name: string): string {
  return PRESET_ALIASES[name] ?? name;
}

function existingDirs(dirs: string[]): string[] {
  for (const dir of dirs) {
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--add-dir ${dir}: no such directory.`);
  }
  return dirs;
}
