import type { AgentEvent, StopReason } from '../contracts/events.js';
import { runAgent } from '../core/loop.js';
import type { CliArgs } from './args.js';
import { createCliAuthorize } from './permission-setup.js';
import { openRunSession } from './run-session.js';
import { exitCodeFor } from './exit-codes.js';
import { prepareRun } from './prepare-run.js';
import { createTextRenderer } from './render-text.js';
import { colorEnabled } from './display/style.js';
import { collectSecrets, createRedactor, redactedJson } from '../session/redact.js';

export { DEFAULT_MAX_TURNS } from './prepare-run.js';

/** One task, non-interactively: flags beat environment, environment beats config files. */
export async function runCommand(args: CliArgs, prompt: string, signal: AbortSignal): Promise<number> {
  const { workspace, settings, resolved, provider, tools, context, system, maxCost, maxTurns, temperature } = await prepareRun(args);
  const authorize = createCliAuthorize(settings);
  const session = openRunSession(args, { workspace, system, warn: (text) => process.stderr.write(`vibe-agent: warning: ${text}\n`) });

  // --json is read by programs and ends up in CI logs: keys are redacted as in the session file.
  const redact = createRedactor(collectSecrets(process.env, [args.apiKey]));
  const render = args.json ? (event: AgentEvent) => process.stdout.write(`${redactedJson(event, redact)}\n`) : textRenderer();
  let reason: StopReason = 'aborted';
  for await (const event of runAgent({
    provider,
    model: resolved.model,
    input: prompt,
    tools,
    system,
    ...(session?.messages ? { messages: session.messages } : {}),
    maxTurns,
    temperature,
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

function textRenderer(): (event: AgentEvent) => void {
  const stdoutIsTty = process.stdout.isTTY === true;
  return createTextRenderer({
    out: process.stdout,
    info: stdoutIsTty ? process.stdout : process.stderr,
    color: colorEnabled(stdoutIsTty ? process.stdout : process.stderr),
    holdUntilWhole: !stdoutIsTty,
  });
}
