import { resolve } from 'node:path';
import type { Provider } from '../providers/provider.js';
import { createProvider, resolveProvider, type ResolvedProvider } from '../providers/create-provider.js';
import { ToolRegistry } from '../tools/registry.js';
import type { CliArgs } from './args.js';
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
  maxTurns: number;
  temperature: number;
}

/** Flags beat environment, environment beats config files, config files beat defaults. */
export async function prepareRun(args: CliArgs): Promise<PreparedRun> {
  const workspace = resolve(args.cwd ?? process.cwd());
  const config = loadConfig(workspace, process.env, (message) => process.stderr.write(`vibe-agent: warning: ${message}\n`));
  const resolved = resolveProvider({
    provider: args.provider ?? process.env.VIBE_PROVIDER ?? config.provider,
    model: args.model ?? process.env.VIBE_MODEL ?? config.model,
    apiKey: args.apiKey,
    baseUrl: args.baseUrl ?? config.baseUrl,
  });
  const tools = new ToolRegistry(selectTools(args.tools ?? config.tools));
  const provider = await createProvider(resolved);
  return {
    workspace,
    config,
    resolved,
    provider,
    tools,
    maxTurns: args.maxTurns ?? config.maxTurns ?? DEFAULT_MAX_TURNS,
    temperature: args.temperature ?? config.temperature ?? 0,
  };
}
