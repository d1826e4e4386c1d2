import type { AgentEvent, StopReason } from '../../../contracts/events.js';
import type { AgentOptions } from '../../../core/agent-options.js';
import { mayChangeFiles } from '../../../checkpoints/may-change-files.js';
import { runAgent, type RunResult } from '../../../core/loop.js';
import { PLAN_MODE_PROMPT } from '../../../core/system-prompt.js';
import type { CliArgs } from '../../args/cli-args.js';
import { createCliAuthorize } from '../../setup/permission-setup.js';
import { promptWithPlan, readApprovedPlan } from '../../prompt/approved-plan.js';
import { startTelemetryIfWanted } from '../../setup/telemetry-setup.js';
import { EXIT, exitCodeFor } from '../../settings/exit-codes.js';
import { startRunPrompt } from '../../prompt/custom-command-prompt.js';
import { continueAfterStop } from '../../../hooks/stop-hook.js';
import { promptThroughHooks } from '../../prompt/prompt-hooks.js';
import { attachImages } from '../../prompt/attach-images.js';
import { attachedLines, attachMentionedFiles, withAttachments } from '../../../mentions/attach-mentions.js';
import { prepareRun, type PreparedRun } from '../../setup/prepare-run.js';
import { endSession } from '../../../hooks/session-end.js';
import { createTextRenderer } from './render-text.js';
import { colorEnabled } from '../../display/theme.js';
import { safeStderr, safeStdout } from '../../display/safe-output.js';
import { cacheTtlMsOf } from '../../../context/cache-prices.js';
import { UnaskedCalls } from './approval-needed.js';
import { HandBack } from './hand-back.js';
import { userConfigPath } from '../../settings/config.js';

export { DEFAULT_MAX_TURNS } from '../../setup/prepare-run.js';

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
  const approved = settings.planFile !== undefined ? readApprovedPlan(settings.planFile) : undefined;
  const unasked = new UnaskedCalls();
  // The auto mode hands back after repeated refusals: headless, the run stops (exit 4) listing them.
  const handBack = new HandBack(signal);
  signal = handBack.signal;
  const authorize = createCliAuthorize(settings, undefined, approved?.scope, { onUnasked: unasked.record, hooks: prepared.hooks, reviewer: prepared.reviewer, onHandBack: handBack.record });
  const planning = settings.permissionMode === 'plan';
  const mcpPrompt = (text: string) => prepared.mcp.expandPrompt(text, settings.mcpWaitMs);
  const start = await startRunPrompt(prompt, { commands: commands.commands, tools, scope: skills.scope, authorize, workspace, signal, mcpPrompt });
  if (!start.ok) {
    safeStderr.write(`vibe-agent: ${start.reason}\n`);
    return unasked.any ? refusedForApproval(unasked, EXIT.approvalNeeded) : EXIT.providerError;
  }
  const model = start.model ?? resolved.model;
  const attached = await attachImages({
    paths: settings.images,
    preset: resolved.preset.name,
    protocol: resolved.preset.protocol,
    model,
  });
  if (!attached.ok) {
    safeStderr.write(`vibe-agent: ${attached.reason}\n`);
    return EXIT.usage;
  }
  for (const note of attached.notes) safeStderr.write(`vibe-agent: ${note}\n`);
  // Mentions are the user's own: a custom command's or an MCP prompt's expansion is not searched.
  const mentioned = await attachMentionedFiles(start.prompt === prompt ? prompt : '', { tools, authorize, workspace, signal });
  if (!mentioned.ok) {
    safeStderr.write(`vibe-agent: ${mentioned.reason}\n`);
    return EXIT.usage;
  }
  for (const line of attachedLines(mentioned.attached)) safeStderr.write(`vibe-agent: ${line}\n`);
  // With --no-session none of the session store's (or the checkpoints') code loads; a resume with it is refused there.
  const unsaved = args.noSession && !args.continue && args.resume === undefined;
  const saving = unsaved ? undefined : await import('../../prompt/session-run.js');
  const session = await saving?.openRunSession(args, { workspace, system, warn: (text) => safeStderr.write(`vibe-agent: warning: ${text}\n`) });

  if (session?.messages) (await import('../../../tools/builtin/todo.js')).restoreTodos(todos, session.messages);
  const hooked = await promptThroughHooks(prepared.hooks, start.prompt, { id: session?.id, path: session?.path, resumed: session?.messages !== undefined });
  if ('blocked' in hooked) {
    safeStderr.write(`vibe-agent: the UserPromptSubmit hook blocked the prompt: ${hooked.blocked}\n`);
    session?.close();
    return EXIT.providerError;
  }
  const render = args.json ? (await import('../../display/json-lines.js')).createJsonLinesRenderer(process.stdout, args.apiKey) : textRenderer();
  let reason: StopReason = 'aborted';
  const options: AgentOptions = {
    provider,
    model,
    input: withAttachments(approved ? promptWithPlan(hooked.input, approved.text) : hooked.input, mentioned.section),
    ...(attached.images.length + mentioned.images.length ? { images: [...attached.images, ...mentioned.images] } : {}),
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
    cacheTtlMs: cacheTtlMsOf(settings.cacheTtl),
    ...(maxCost !== undefined ? { maxCost } : {}),
  };
  const warn = (text: string) => safeStderr.write(`vibe-agent: warning: ${text}\n`);
  const telemetry = await startTelemetryIfWanted(settings, session ? { conversationId: session.id } : {});
  // Only this loop's requests are stored (children get the provider as it was): what a replay compares.
  const recorded = (agent: AgentOptions): AgentOptions => (session && saving ? { ...agent, provider: saving.recordingRequests(provider, (request) => session.recordRequest(request)) } : agent);
  // The task tool's code loads only when subagents are on.
  const withSubagents = subagents ? (await import('../../../agents/subagents.js')).withSubagents : undefined;
  // Checkpoints are kept in the session.
  const withCheckpoints = session ? saving?.withCheckpoints : undefined;
  try {
    let next: AgentOptions | undefined = options;
    for (let round = 0; next; round++) {
      const run = runAgent(recorded(withSubagents ? withSubagents(next, subagents) : next));
      const watched = telemetry ? telemetry.wrap(run) : run;
      const events: AsyncGenerator<AgentEvent, RunResult> = withCheckpoints ? withCheckpoints(watched, { workspace, session: () => session, warn, mayChangeFiles: (call) => mayChangeFiles(tools, call) }) : watched;
      let step: IteratorResult<AgentEvent, RunResult> = await events.next();
      for (; !step.done; step = await events.next()) {
        session?.record(step.value);
        render(step.value.type === 'stop' ? handBack.annotate(unasked.any ? { ...step.value, approvalNeeded: unasked.forJson() } : step.value) : step.value);
        if (step.value.type === 'stop') reason = step.value.reason;
      }
      // A Stop hook that blocks sends the agent back to work with its reason, a bounded number of times.
      const more = await continueAfterStop(prepared.hooks, reason, round, warn);
      next = more === undefined ? undefined : { ...options, messages: step.value.messages, input: more };
    }
  } finally {
    await endSession(prepared.hooks, 'other');
    // Spans are sent before the process exits, also after an interrupt or an error.
    await telemetry?.shutdown().catch((error: unknown) => warn(`the OpenTelemetry spans could not be sent (${(error as Error).message}).`));
  }
  // Every record is already written; closing only fsyncs. A crash before this loses nothing recorded.
  session?.close();
  if (handBack.refused) {
    safeStderr.write(handBack.explain());
    return EXIT.approvalNeeded;
  }
  const code = exitCodeFor(reason);
  // The run went on after the refusal (the model may have found another way), but CI must not see success.
  return unasked.any ? refusedForApproval(unasked, code === EXIT.answered ? EXIT.approvalNeeded : code) : code;
}

function refusedForApproval(unasked: UnaskedCalls, code: number): number {
  safeStderr.write(unasked.explain(code === EXIT.approvalNeeded ? code : undefined, userConfigPath()));
  return code;
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
