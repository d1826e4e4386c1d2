import { resolve } from 'node:path';
import type { AgentEvent, StopReason } from '../core/events.js';
import { runAgent } from '../core/loop.js';
import { DEFAULT_SYSTEM_PROMPT } from '../core/system-prompt.js';
import { ConfigError, createProvider, resolveProvider } from '../providers/create-provider.js';
import { PRICES, priceOf } from '../providers/pricing.js';
import { ToolRegistry } from '../tools/registry.js';
import type { CliArgs } from './args.js';
import { loadConfig } from './config.js';
import { exitCodeFor } from './exit-codes.js';
import { createTextRenderer } from './render-text.js';
import { selectTools } from './select-tools.js';
import { colorEnabled } from './style.js';

export const DEFAULT_MAX_TURNS = 50;

/** One task, non-interactively: flags beat environment, environment beats config files. */
export async function runCommand(args: CliArgs, prompt: string, signal: AbortSignal): Promise<number> {
  const workspace = resolve(args.cwd ?? process.cwd());
  const config = loadConfig(workspace);
  const resolved = resolveProvider({
    provider: args.provider ?? process.env.VIBE_PROVIDER ?? config.provider,
    model: args.model ?? process.env.VIBE_MODEL ?? config.model,
    apiKey: args.apiKey,
    baseUrl: args.baseUrl ?? config.baseUrl,
  });
  const maxCost = args.maxCost ?? config.maxCost;
  if (maxCost !== undefined && !priceOf(resolved.model)) {
    throw new ConfigError(`--max-cost needs the model's price, and none is known for "${resolved.model}". Priced models: ${Object.keys(PRICES).join(', ')}.`);
  }
  const tools = new ToolRegistry(selectTools(args.tools ?? config.tools));
  const provider = await createProvider(resolved);

  const render = args.json ? (event: AgentEvent) => process.stdout.write(`${JSON.stringify(event)}\n`) : textRenderer();
  let reason: StopReason = 'aborted';
  for await (const event of runAgent({
    provider,
    model: resolved.model,
    input: prompt,
    tools,
    system: DEFAULT_SYSTEM_PROMPT,
    maxTurns: args.maxTurns ?? config.maxTurns ?? DEFAULT_MAX_TURNS,
    temperature: args.temperature ?? config.temperature ?? 0,
    workspace,
    signal,
    ...(maxCost !== undefined ? { maxCost } : {}),
  })) {
    render(event);
    if (event.type === 'stop') reason = event.reason;
  }
  return exitCodeFor(reason);
}

function textRenderer(): (event: AgentEvent) => void {
  const stdoutIsTty = process.stdout.isTTY === true;
  return createTextRenderer({
    out: process.stdout,
    info: stdoutIsTty ? process.stdout : process.stderr,
    color: colorEnabled(stdoutIsTty ? process.stdout : process.stderr),
  });
}
