import type { AgentEvent, StopReason } from '../core/events.js';
import { runAgent } from '../core/loop.js';
import { DEFAULT_SYSTEM_PROMPT } from '../core/system-prompt.js';
import type { CliArgs } from './args.js';
import { createCliAuthorize } from './permission-setup.js';
import { exitCodeFor } from './exit-codes.js';
import { createTextRenderer } from './render-text.js';
import { prepareRun } from './prepare-run.js';
import { colorEnabled } from './style.js';

export { DEFAULT_MAX_TURNS } from './prepare-run.js';

/** One task, non-interactively: flags beat environment, environment beats config files. */
export async function runCommand(args: CliArgs, prompt: string, signal: AbortSignal): Promise<number> {
  const { workspace, config, resolved, provider, tools, maxTurns, temperature } = await prepareRun(args);
  const authorize = createCliAuthorize(args, config);

  const render = args.json ? (event: AgentEvent) => process.stdout.write(`${JSON.stringify(event)}\n`) : textRenderer();
  let reason: StopReason = 'aborted';
  for await (const event of runAgent({
    provider,
    model: resolved.model,
    input: prompt,
    tools,
    system: DEFAULT_SYSTEM_PROMPT,
    maxTurns,
    temperature,
    workspace,
    authorize,
    signal,
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
