import type { AgentEvent, StopReason } from '../contracts/events.js';
import { withSubagents } from '../agents/subagents.js';
import type { AgentOptions } from '../core/agent-options.js';
import { withCheckpoints } from '../checkpoints/with-checkpoints.js';
import { mayChangeFiles } from '../checkpoints/may-change-files.js';
import { runAgent } from '../core/loop.js';
import { PLAN_MODE_PROMPT } from '../core/system-prompt.js';
import type { CliArgs } from './args.js';
import { createCliAuthorize } from './permission-setup.js';
import { openRunSession } from './run-session.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { startRunPrompt } from './custom-command-prompt.js';
import { promptThroughHooks } from './prompt-hooks.js';
import { prepareRun, type PreparedRun } from './prepare-run.js';
import { createTextRenderer } from './render-text.js';
import { createJsonLinesRenderer } from './display/json-lines.js';
import { colorEnabled } from './display/theme.js';
import { safeStderr, safeStdout } from './display/safe-output.js';

export { DEFAULT_MAX_TURNS } from './prepare-run.js';

/** One task, non-interactively: flags beat environment, environment beats config files. */
export async function runCommand(args: CliArgs, prompt: string, signal: AbortSignal): Promise<number> {
  const prepared = await prepareRun(args);
  try {
    return await runPrepared(args, prompt, prepared, signal);
  } finally {
    await prepared.mcp.close();
  }
}

async function runPrepared(args: CliArgs, prompt: string, prepared: PreparedRun, signal: AbortSignal): Promise<number> {
  const { workspace, settings, resolved, provider, tools, context, system, maxCost, maxTurns, temperature, skills, commands, subagents, todos } = prepared;
  const authorize = createCliAuthorize(settings);
  const planning = settings.permissionMode === 'plan';
  const start = await startRunPrompt(prompt, { commands: commands.commands, tools, scope: skills.scope, authorize, workspace, signal });
  if (!start.ok) {
    safeStderr.write(`vibe-agent: ${start.reason}\n`);
    return EXIT.providerError;
  }
  const session = openRunSession(args, { workspace, system, warn: (text) => safeStderr.write(`vibe-agent: warning: ${text}\n`) });

  if (session?.messages) todos.restore(session.messages);
  const hooked = await promptThroughHooks(prepared.hooks, start.prompt, { id: session?.id, resumed: session?.messages !== undefined });
  if ('blocked' in hooked) {
    safeStderr.write(`vibe-agent: the UserPromptSubmit hook blocked the prompt: ${hooked.blocked}\n`);
    session?.close();
    return EXIT.providerError;
  }
  const render = args.json ? createJsonLinesRenderer(process.stdout, args.apiKey) : textRenderer();
  let reason: StopReason = 'aborted';
  const options: AgentOptions = {
    provider,
    model: start.model ?? resolved.model,
    input: hooked.input,
    tools,
    system: planning ? `${system}\n\n${PLAN_MODE_PROMPT}` : system,
    ...(planning ? { plan: true } : {}),
    ...(session?.messages ? { messages: session.messages } : {}),
    maxTurns,
    temperature,
    workspace,
    authorize,
    signal,
    prepareMessages: context.prepareMessages,
    onContextOverflow: context.onContextOverflow,
    ...(maxCost !== undefined ? { maxCost } : {}),
  };
  const events = runAgent(subagents ? withSubagents(options, subagents) : options);
  const warn = (text: string) => safeStderr.write(`vibe-agent: warning: ${text}\n`);
  for await (const event of withCheckpoints(events, { workspace, session: () => session, warn, mayChangeFiles: (call) => mayChangeFiles(tools, call) })) {
    session?.record(event);
    render(event);
    if (event.type === 'stop') reason = event.reason;
  }
  await prepared.hooks?.run('Stop', { stop_hook_active: false, stop_reason: reason });
  // Every record is already written; closing only fsyncs. A crash before this loses nothing recorded.
  session?.close();
  return exitCodeFor(reason);
}

function textRenderer(): (event: AgentEvent) => void {
  const stdoutIsTty = process.stdout.isTTY === true;
  return createTextRenderer({
    out: safeStdout,
    info: stdoutIsTty ? safeStdout : safeStderr,
    color: colorEnabled(stdoutIsTty ? process.stdout : process.stderr),
    holdUntilWhole: !stdoutIsTty,
  });
}
