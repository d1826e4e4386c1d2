import type { CliArgs } from '../../args/cli-args.js';
import { sessionPolicy } from '../../setup/permission-setup.js';
import { readApprovedPlan } from '../../prompt/approved-plan.js';
import { EXIT, exitCodeFor } from '../../settings/exit-codes.js';
import { prepareRun, type PreparedRun } from '../../setup/prepare-run.js';
import { oneShotRenderer } from './one-shot-renderer.js';
import { colorEnabled } from '../../display/theme.js';
import { safeStderr } from '../../display/safe-output.js';
import { UnaskedCalls } from './approval-needed.js';
import { HandBack } from './hand-back.js';
import { userConfigPath } from '../../settings/config.js';
import { UsageError } from '../../settings/usage-error.js';
import { openConversation } from '../../../conversation/open-conversation.js';
import { agentEventOf, promptEvents } from '../../../conversation/prompt-events.js';
import type { Answerer, PromptOutcome } from '../../../conversation/conversation-types.js';
import type { SessionChoice } from '../../../conversation/session-file.js';
import { conversationParts } from '../../setup/conversation-parts.js';
import { createTerminalApproval } from '../../setup/terminal-approval.js';
import { agentEnvironment } from '../../../secrets/held-secrets.js';
import { ownSecrets } from '../../../secrets/own-redactor.js';

export { DEFAULT_MAX_TURNS } from '../../setup/prepare-run.js';

/** One task, non-interactively: flags beat environment, environment beats config files. */
export async function runCommand(args: CliArgs, prompt: string | undefined, signal: AbortSignal): Promise<number> {
  const prepared = await prepareRun(args);
  try {
    return await runPrepared(args, prompt, prepared, signal);
  } finally {
    await prepared.mcp.close();
  }
}

async function runPrepared(args: CliArgs, prompt: string | undefined, prepared: PreparedRun, signal: AbortSignal): Promise<number> {
  const { workspace, settings } = prepared;
  const approved = settings.planFile !== undefined ? readApprovedPlan(settings.planFile) : undefined;
  const unasked = new UnaskedCalls();
  // The auto mode hands back after repeated refusals: headless, the run stops (exit 4) listing them.
  const handBack = new HandBack(signal);
  signal = handBack.signal;
  const warn = (text: string) => safeStderr.write(`vibe-agent: warning: ${text}\n`);
  for (const warning of approved?.warnings ?? []) warn(warning);
  const terminal = terminalAnswerer();
  const session = await sessionChoice(args, workspace);
  const conversation = await openConversation(
    conversationParts(prepared, {
      session,
      authorize: (ask) => sessionPolicy(prepared, { ask, ...(approved ? { planScope: approved.scope } : {}), onUnasked: unasked.record, onHandBack: handBack.record }),
      asks: terminal !== undefined,
      warn,
      ...(approved ? { approvedPlan: approved.text } : {}),
    }),
  ).catch(async (error: unknown) => {
    throw session.kind === 'resume' ? (await import('../../prompt/session-choice.js')).asUsage(error) : error;
  });
  if (terminal) conversation.questions.attach(terminal);
  const render = args.json ? (await import('../../display/json-lines.js')).createJsonLinesRenderer(process.stdout, args.apiKey) : oneShotRenderer(ownSecrets(agentEnvironment(), [settings.apiKey]));
  const goals = settings.goal !== undefined || session.kind === 'resume' ? await import('./goal-run.js') : undefined;
  const goal = await goals?.chooseGoal(conversation, prepared, { resumed: session.kind === 'resume', interactive: terminal !== undefined, prompt }).catch(async (error: unknown) => {
    await conversation.close('other');
    throw error;
  });
  if (goals && goal) {
    let code: number;
    try {
      code = await goals.runGoal(conversation, prepared, goal, { prompt, resumed: session.kind === 'resume', json: args.json, interactive: terminal !== undefined, render, unaskable: () => unasked.calls.length, signal, warn });
    } finally {
      await conversation.close('other');
    }
    if (handBack.refused) {
      safeStderr.write(handBack.explain());
      return EXIT.approvalNeeded;
    }
    if (unasked.any) refusedForApproval(unasked, code);
    return code;
  }
  if (prompt === undefined) {
    await conversation.close('other');
    throw new UsageError('No prompt given.');
  }
  let outcome: PromptOutcome = { reason: 'aborted' };
  try {
    const events = promptEvents(conversation, prompt, { signal, imagePaths: settings.images });
    for (let step = await events.next(); ; step = await events.next()) {
      if (step.done) {
        outcome = step.value;
        break;
      }
      if (step.value.type === 'prompt_notes') for (const note of step.value.notes) safeStderr.write(`vibe-agent: ${note}\n`);
      const event = agentEventOf(step.value);
      if (event) render(event.type === 'stop' ? handBack.annotate(unasked.any ? { ...event, approvalNeeded: unasked.forJson() } : event) : event);
    }
  } finally {
    await conversation.close('other');
  }
  if (handBack.refused) {
    safeStderr.write(handBack.explain());
    return EXIT.approvalNeeded;
  }
  if (outcome.reason === 'refused') {
    const refusal = outcome.refusal!;
    safeStderr.write(`vibe-agent: ${refusal.reason}\n`);
    if (refusal.stage === 'command' && unasked.any) return refusedForApproval(unasked, EXIT.approvalNeeded);
    return refusal.stage === 'mentions' || refusal.stage === 'images' ? EXIT.usage : EXIT.providerError;
  }
  const code = exitCodeFor(outcome.reason);
  // The run went on after the refusal (the model may have found another way), but CI must not see success.
  return unasked.any ? refusedForApproval(unasked, code === EXIT.answered ? EXIT.approvalNeeded : code) : code;
}

/** --no-session, --continue / --resume (the session chosen here), or a new session. */
async function sessionChoice(args: CliArgs, workspace: string): Promise<SessionChoice> {
  const resuming = args.continue || args.resume !== undefined;
  if (args.noSession) {
    if (resuming) throw new UsageError('--no-session cannot be combined with --continue or --resume.');
    return { kind: 'none' };
  }
  if (args.continue && args.resume !== undefined) throw new UsageError('Give either --continue or --resume, not both.');
  if (!resuming) return { kind: 'new' };
  // The sessions list's code loads only for a resume.
  return { kind: 'resume', path: (await import('../../prompt/session-choice.js')).chooseSessionPath(args, workspace, agentEnvironment()) };
}

/** The terminal's question when stdin and stderr are both terminals; otherwise (CI, pipes) nobody can be asked. */
function terminalAnswerer(): Answerer | undefined {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return undefined;
  const ask = createTerminalApproval({ input: process.stdin, output: process.stderr, color: colorEnabled(process.stderr) });
  return (question, signal) => ask(question.request, signal);
}

function refusedForApproval(unasked: UnaskedCalls, code: number): number {
  safeStderr.write(unasked.explain(code === EXIT.approvalNeeded ? code : undefined, userConfigPath()));
  return code;
}
