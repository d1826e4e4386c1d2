import type { AgentEvent } from '../../../contracts/events.js';
import { run, type RunResult } from '../../../core/loop.js';
import { DEFAULT_SYSTEM_PROMPT } from '../../../core/system-prompt.js';
import { ConfigError, createProvider } from '../../../providers/create-provider.js';
import { resolveCliProvider } from '../../setup/provider-problem-text.js';
import type { Provider } from '../../../contracts/provider.js';
import { ScriptedProvider } from '../../../providers/scripted.js';
import { withProtocol, type ToolProtocol } from '../../../providers/with-protocol.js';
import { createCourseTools } from '../../../tools/builtin/course.js';
import { loadZod } from '../../../tools/zod-loader.js';
import { ToolRegistry } from '../../../tools/registry.js';
import type { CliArgs } from '../../args/cli-args.js';
import { providerSettings } from '../../setup/provider-settings.js';
import { resolveSettings } from '../../setup/resolve-settings.js';
import { demoPromptJsonScripts } from './demo-prompt-json-scripts.js';
import type { DemoTask } from './demo-tasks.js';
import { agentEnvironment } from '../../../secrets/held-secrets.js';

/** The course demo uses 6, as in the article. */
export const DEMO_MAX_TURNS = 6;

export interface DemoModel {
  provider: Provider;
  model: string;
}

/** The configured model, or undefined when none is configured and none was asked for (offline). */
export async function demoModel(args: CliArgs): Promise<DemoModel | undefined> {
  try {
    // Flags and environment only: the demo's model is chosen for the demo, not by a workspace's config file.
    const resolved = resolveCliProvider(providerSettings(resolveSettings(args, agentEnvironment(), {}), agentEnvironment()));
    return { provider: await createProvider(resolved), model: resolved.model };
  } catch (error) {
    if (!(error instanceof ConfigError) || args.provider || args.model) throw error;
    return undefined;
  }
}

/** The provider for one task: the real model, or the task's script for that protocol. */
export function demoProvider(task: DemoTask, protocol: ToolProtocol, real: DemoModel | undefined, pageUrl: string): Provider {
  if (real) return withProtocol(real.provider, protocol);
  if (protocol === 'native') return new ScriptedProvider(task.script);
  const script = demoPromptJsonScripts(pageUrl)[task.title];
  if (!script) throw new Error(`The demo task "${task.title}" has no prompt-JSON script (src/cli/demo-prompt-json-scripts.ts).`);
  return withProtocol(new ScriptedProvider(script), protocol);
}

export async function runDemoTask(
  task: DemoTask,
  options: { protocol: ToolProtocol; real: DemoModel | undefined; pageUrl: string; signal: AbortSignal },
  onEvent?: (event: AgentEvent) => void,
): Promise<RunResult> {
  // The course tools are made here, not offered from their build-time specs: their schemas are read from zod.
  await loadZod();
  return run(
    {
      provider: demoProvider(task, options.protocol, options.real, options.pageUrl),
      model: options.real?.model ?? 'scripted',
      input: task.prompt,
      // The demo's page is served on this machine, which fetch_url refuses unless told otherwise.
      tools: new ToolRegistry(createCourseTools({ privateHosts: [new URL(options.pageUrl).hostname] })),
      system: DEFAULT_SYSTEM_PROMPT,
      maxTurns: DEMO_MAX_TURNS,
      signal: options.signal,
    },
    onEvent,
  );
}
