import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AgentEvent, StopReason } from '../core/events.js';
import { createContextPolicy } from '../context/policy.js';
import { runAgent } from '../core/loop.js';
import { buildSystemPrompt } from '../memory/build-system-prompt.js';
import { withProtocol } from '../providers/with-protocol.js';
import { ConfigError, createProvider, resolveProvider } from '../providers/create-provider.js';
import { PRICES, priceOf } from '../providers/pricing.js';
import { ToolRegistry } from '../tools/registry.js';
import { UsageError, type CliArgs } from './args.js';
import { loadConfig } from './config.js';
import { createCliAuthorize } from './permission-setup.js';
import { openRunSession } from './run-session.js';
import { exitCodeFor } from './exit-codes.js';
import { createTextRenderer } from './render-text.js';
import { selectTools } from './select-tools.js';
import { colorEnabled } from './style.js';

export const DEFAULT_MAX_TURNS = 50;

/** One task, non-interactively: flags beat environment, environment beats config files. */
export async function runCommand(args: CliArgs, prompt: string, signal: AbortSignal): Promise<number> {
  const workspace = resolve(args.cwd ?? process.cwd());
  const config = loadConfig(workspace, process.env, (message) => process.stderr.write(`vibe-agent: warning: ${message}\n`));
  const resolved = resolveProvider({
    provider: args.provider ?? process.env.VIBE_PROVIDER ?? config.provider,
    model: args.model ?? process.env.VIBE_MODEL ?? config.model,
    apiKey: args.apiKey,
    baseUrl: args.baseUrl ?? config.baseUrl,
  });
  const tools = new ToolRegistry(
    selectTools(args.tools ?? config.tools, {
      extraRoots: existingDirs([...(config.addDirs ?? []).map((dir) => resolve(workspace, dir)), ...args.addDirs.map((dir) => resolve(dir))]),
      allowSecrets: args.allowSecrets || config.allowSecrets === true,
    }),
  );
  const authorize = createCliAuthorize(args, config);
  const provider = withProtocol(await createProvider(resolved), args.protocol);

  const system = buildSystemPrompt({ workspace, cwd: process.cwd() });
  const session = openRunSession(args, { workspace, system, warn: (text) => process.stderr.write(`vibe-agent: warning: ${text}\n`) });
  const contextWindow = args.contextWindow ?? config.contextWindow;
  const context = createContextPolicy({ provider, registry: tools, ...(contextWindow !== undefined ? { contextWindow } : {}) });
  const maxCost = args.maxCost ?? config.maxCost;
  if (maxCost !== undefined && !priceOf(resolved.model)) {
    throw new ConfigError(`--max-cost needs the model's price, and none is known for "${resolved.model}". Priced models: ${Object.keys(PRICES).join(', ')}.`);
  }

  const render = args.json ? (event: AgentEvent) => process.stdout.write(`${JSON.stringify(event)}\n`) : textRenderer();
  let reason: StopReason = 'aborted';
  for await (const event of runAgent({
    provider,
    model: resolved.model,
    input: prompt,
    tools,
    system,
    ...(session?.messages ? { messages: session.messages } : {}),
    maxTurns: args.maxTurns ?? config.maxTurns ?? DEFAULT_MAX_TURNS,
    temperature: args.temperature ?? config.temperature ?? 0,
    workspace,
    authorize,
    signal,
    prepareMessages: context.prepareMessages,
    onContextOverflow: context.onContextOverflow,
    ...(maxCost !== undefined ? { maxCost } : {}),
  })) {
    session?.record(event);
    render(event);
    if (event.type === 'stop') reason = event.reason;
  }
  // Every record is already written; closing only fsyncs. A crash before this loses nothing recorded.
  session?.close();
  return exitCodeFor(reason);
}

function existingDirs(dirs: string[]): string[] {
  for (const dir of dirs) {
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--add-dir ${dir}: no such directory.`);
  }
  return dirs;
}

function textRenderer(): (event: AgentEvent) => void {
  const stdoutIsTty = process.stdout.isTTY === true;
  return createTextRenderer({
    out: process.stdout,
    info: stdoutIsTty ? process.stdout : process.stderr,
    color: colorEnabled(stdoutIsTty ? process.stdout : process.stderr),
  });
}
