import type { AgentEvent, StopReason } from '../contracts/events.js';
import { withCheckpoints } from '../checkpoints/with-checkpoints.js';
import { runAgent } from '../core/loop.js';
import type { CliArgs } from './args.js';
import { createCliAuthorize } from './permission-setup.js';
import { openRunSession } from './run-session.js';
import { exitCodeFor } from './exit-codes.js';
import { prepareRun } from './prepare-run.js';
import { createTextRenderer } from './render-text.js';
import { createJsonLinesRenderer } from './display/json-lines.js';
import { colorEnabled } from './display/theme.js';

export { DEFAULT_MAX_TURNS } from './prepare-run.js';

/** One task, non-interactively: flags beat environment, environment beats config files. */
export async function runCommand(args: CliArgs, prompt: string, signal: AbortSignal): Promise<number> {
  const { workspace, settings, resolved, provider, tools, context, system, maxCost, maxTurns, temperature } = await prepareRun(args);
  const authorize = createCliAuthorize(settings);
  const session = openRunSession(args, { workspace, system, warn: (text) => process.stderr.write(`vibe-agent: warning: ${text}\n`) });

  const render = args.json ? createJsonLinesRenderer(process.stdout, args.apiKey) : textRenderer();
  let reason: StopReason = 'aborted';
  const events = runAgent({
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
  });
  const warn = (text: string) => process.stderr.write(`vibe-agent: warning: ${text}\n`);
  for await (const event of withCheckpoints(events, { workspace, session: () => session, warn })) {
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
