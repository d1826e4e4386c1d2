import { resolve } from 'node:path';
import { applyRewind, planRewind, type RewindPlan } from '../../../checkpoints/rewind.js';
import { SessionCheckpoints } from '../../../checkpoints/session-checkpoints.js';
import { readSessionFile } from '../../../session/read-session.js';
import { resumeSession } from '../../../session/resume-session.js';
import type { CliArgs } from '../../args/cli-args.js';
import type { RewindArgs } from './rewind-args.js';
import { EXIT } from '../../settings/exit-codes.js';
import { rewindSummary } from './rewind-text.js';
import { sessionRewindPoints } from '../../../checkpoints/rewind-points.js';
import { describePoints, pointName } from './rewind-points-text.js';
import { rewindTarget, undoPointNumber } from './rewind-target.js';
import { busyAsUsage, chooseSessionPath } from '../../prompt/session-choice.js';
import { UsageError } from '../../settings/usage-error.js';
import { safeStderr, safeStdout } from '../../display/safe-output.js';
import { agentEnvironment } from '../../../secrets/held-secrets.js';
import { askYesNo, canAskYesNo } from '../../setup/ask-yes-no.js';

/** `vibe-agent rewind`: back to before a prompt of the latest session (or --resume ID), files and/or conversation. */
export async function rewindCommand(args: CliArgs & { rewind?: RewindArgs }, env: NodeJS.ProcessEnv = agentEnvironment()): Promise<number> {
  const options = args.rewind ?? { files: true, conversation: true, force: false, list: false };
  const workspace = resolve(args.cwd ?? process.cwd());
  const sessionPath = chooseSessionPath({ ...args, continue: args.resume === undefined }, workspace, env, { lands: true });
  const sessionId = readSessionFile(sessionPath).header?.id ?? sessionPath.replace(/^.*[\\/]/, '').replace(/\.jsonl$/, '');
  const store = new SessionCheckpoints({ workspace, sessionId, env });
  const points = sessionRewindPoints(store, sessionPath);
  if (options.list || points.length === 0) {
    safeStdout.write(points.length ? `${(await describePoints(store, points)).join('\n')}\n` : `Session ${sessionId} has nothing to rewind to (no prompts yet).\n`);
    return points.length || options.list ? EXIT.answered : EXIT.providerError;
  }
  const point = rewindTarget(points, options.to, '--to N');
  if (typeof point === 'string') {
    if (options.to !== undefined) throw new UsageError(`Session ${sessionId}: ${point}`);
    safeStderr.write(`vibe-agent: ${point}\n`);
    return EXIT.providerError;
  }

  // Held from the plan to the last record, so no run appends to the session in between.
  const session = busyAsUsage(() => resumeSession(sessionPath));
  try {
    const plan = await planRewind(store, { ...(point.checkpoint ? { checkpoint: point.checkpoint } : {}), keepRecords: point.keepRecords, files: options.files, conversation: options.conversation, sessionPath });
    if (plan.userChanged.length && !options.force && !(await confirmOverwrite(plan))) return EXIT.providerError;
    const outcome = await applyRewind(store, plan);
    if (outcome.conversationRecord) session.writer.append(outcome.conversationRecord);
    const undo = `vibe-agent rewind --to ${undoPointNumber(store, sessionPath, outcome.undo)}`;
    safeStdout.write(`${rewindSummary(plan, outcome, { target: pointName(point), undo }).join('\n')}\n`);
    return EXIT.answered;
  } finally {
    session.close();
  }
}

async function confirmOverwrite(plan: RewindPlan): Promise<boolean> {
  const list = plan.userChanged.map((path) => `  ${path}`).join('\n');
  if (!canAskYesNo()) {
    safeStderr.write(`vibe-agent: these files changed after the agent left them, and the rewind would overwrite them:\n${list}\nNothing was changed. Run again with --force to overwrite them (or --conversation-only to keep the files).\n`);
    return false;
  }
  return askYesNo(`These files changed after the agent left them:\n${list}\nOverwrite them?`);
}
