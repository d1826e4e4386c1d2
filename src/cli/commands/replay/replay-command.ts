import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { againstRun, type AgainstOutcome } from '../../../replay/against-run.js';
import { NotReplayable, recordedRuns, type RecordedRun } from '../../../replay/recorded-run.js';
import type { ReplayDifference } from '../../../replay/replay-provider.js';
import { replayRun, type ReplaySetup } from '../../../replay/replay-run.js';
import { replayReviews, type ReviewReplay } from '../../../replay/replay-reviews.js';
import { replayVerdicts, type VerdictReplay } from '../../../replay/replay-verdicts.js';
import type { SideModel } from '../../../side-model/ask-side-model.js';
import { goalSetup } from '../../setup/goal-setup.js';
import { findSession } from '../../../session/list-sessions.js';
import { readSessionFile } from '../../../session/read-session.js';
import { collectSecrets, createRedactor } from '../../../session/redact.js';
import type { CliArgs } from '../../args/cli-args.js';
import type { ReplayArgs } from './replay-args.js';
import { EXIT } from '../../settings/exit-codes.js';
import { prepareRun, type PreparedRun } from '../../setup/prepare-run.js';
import { conversationParts } from '../../setup/conversation-parts.js';
import { replayPolicy } from '../../setup/permission-setup.js';
import { UsageError } from '../../settings/usage-error.js';
import { safeStderr, safeStdout } from '../../display/safe-output.js';
import { agentEnvironment } from '../../../secrets/held-secrets.js';

// An offline replay never calls the provider; the key only lets the settings resolve without one configured.
const OFFLINE_KEY = 'replay-offline';

/** `vibe-agent replay SESSION [--against]`: 0 identical, 1 differs (or diverges), 2 usage error. */
export async function replayCommand(args: CliArgs & ReplayArgs, signal: AbortSignal, env: NodeJS.ProcessEnv = agentEnvironment()): Promise<number> {
  const { session, against } = args.replay!;
  const path = sessionPath(session, resolve(args.cwd ?? process.cwd()), env);
  const read = readSessionFile(path);
  for (const warning of read.warnings) safeStderr.write(`vibe-agent: warning: ${warning}\n`);
  let runs: RecordedRun[];
  try {
    runs = recordedRuns(read.records);
  } catch (error) {
    if (error instanceof NotReplayable) throw new UsageError(`Cannot replay ${path}: ${error.message}`);
    throw error;
  }
  if (against && runs.length > 1) throw new UsageError(`Cannot replay ${path} --against a live model: the session holds ${runs.length} runs (it was continued); --against covers a session of one run.`);
  const recorded = runs[0]!;
  for (const warning of recorded.warnings) safeStderr.write(`vibe-agent: warning: ${warning}\n`);
  const workspace = args.cwd ?? (read.header && existsSync(read.header.workspace) ? read.header.workspace : undefined);
  const runArgs: CliArgs = { ...args, noSession: true, ...(workspace ? { cwd: workspace } : {}), ...(against ? {} : { model: args.model ?? recorded.model, apiKey: args.apiKey ?? OFFLINE_KEY }) };
  const prepared = await prepareRun(runArgs, env);
  try {
    const setup = replaySetup(prepared, createRedactor(collectSecrets(env, [args.apiKey])));
    if (against) {
      const code = reportAgainst(await againstRun(recorded, { ...setup, provider: prepared.provider, model: prepared.resolved.model, signal }));
      const reviews = reportReviews(await replayReviews(read.records, prepared.reviewer));
      const verdicts = reportVerdicts(await replayVerdicts(read.records, await liveJudge(read.records, prepared, env)));
      return [code, reviews, verdicts].find((each) => each !== EXIT.answered) ?? EXIT.answered;
    }
    let requests = 0;
    let turns = 0;
    for (const [index, run] of runs.entries()) {
      const outcome = await replayRun(run, setup);
      if (!outcome.identical) return reportDifference(outcome.difference, run, runs.length > 1 ? index + 1 : undefined);
      requests += outcome.requests;
      turns += outcome.turns;
    }
    safeStdout.write(`identical: the ${requests} requests of ${turns} turns${runs.length > 1 ? ` in ${runs.length} runs` : ''} are byte for byte the recorded ones.\n`);
    const reviews = reportReviews(await replayReviews(read.records));
    const verdicts = reportVerdicts(await replayVerdicts(read.records));
    return reviews === EXIT.answered ? verdicts : reviews;
  } finally {
    await prepared.mcp.close();
  }
}

/** The parts a one-shot run of these settings would have, headless (nobody is asked; the replay's own tools answer from the recording). */
function replaySetup(prepared: PreparedRun, redact: (text: string) => string): ReplaySetup {
  const warn = (text: string) => safeStderr.write(`vibe-agent: warning: ${text}\n`);
  const parts = conversationParts(prepared, { session: { kind: 'none' }, authorize: () => replayPolicy(prepared), asks: false, warn });
  return { parts, ...(prepared.contextWindow !== undefined ? { contextWindow: prepared.contextWindow } : {}), redact };
}

function sessionPath(word: string, workspace: string, env: NodeJS.ProcessEnv): string {
  if (word.endsWith('.jsonl') || word.includes('/')) {
    if (!statSync(word, { throwIfNoEntry: false })?.isFile()) throw new UsageError(`replay: no session file ${word}.`);
    return resolve(word);
  }
  const found = findSession(workspace, word, env);
  if (!found.ok) throw new UsageError(`${found.reason}${found.matches.length ? `\nMatching: ${found.matches.map((s) => s.id).join(', ')}` : '\nList them with: vibe-agent sessions'}`);
  return found.session.path;
}

function reportDifference(difference: ReplayDifference, recorded: RecordedRun, run: number | undefined): number {
  safeStdout.write(
    `differs${run ? ` in run ${run}` : ''} at turn ${difference.turn}, request ${difference.request} of ${recorded.exchanges.length}: ${difference.path}\n` +
      `  recorded: ${difference.recorded}\n` +
      `  now:      ${difference.now}\n`,
  );
  return EXIT.providerError;
}

/** The auto mode's reviewer verdicts sent again: each request rebuilt byte for byte, each verdict the same. */
function reportReviews(reviews: ReviewReplay[]): number {
  if (reviews.length === 0) return EXIT.answered;
  const differing = reviews.filter((review) => review.difference !== undefined);
  if (differing.length === 0) {
    safeStdout.write(`reproduced: the ${reviews.length === 1 ? 'reviewer verdict' : `${reviews.length} reviewer verdicts`} (${reviews.map((review) => review.recorded.verdict).join(', ')}), each from the same request.\n`);
    return EXIT.answered;
  }
  for (const review of differing) safeStdout.write(`reviewer verdict differs for ${review.tool} (${review.call}): ${review.difference}\n`);
  return EXIT.providerError;
}

/** The judge a live replay asks again: the goal judge the settings name (only when the session had a goal). */
async function liveJudge(records: readonly { type: string }[], prepared: PreparedRun, env: NodeJS.ProcessEnv): Promise<SideModel | undefined> {
  if (!records.some((record) => record.type === 'goal_verdict')) return undefined;
  return (await goalSetup(prepared.settings, prepared, env, (text) => safeStderr.write(`vibe-agent: warning: ${text}\n`))).judge;
}

/** A goal's judge verdicts sent again: each first request rebuilt byte for byte, each verdict the same (met or not, accepted or not). */
function reportVerdicts(verdicts: VerdictReplay[]): number {
  if (verdicts.length === 0) return EXIT.answered;
  const differing = verdicts.filter((verdict) => verdict.difference !== undefined);
  if (differing.length === 0) {
    const shown = verdicts.map((verdict) => (verdict.recorded.accepted ? 'met' : 'not met')).join(', ');
    safeStdout.write(`reproduced: the ${verdicts.length === 1 ? 'judge verdict' : `${verdicts.length} judge verdicts`} of the goal (${shown}), each from the same request.\n`);
    return EXIT.answered;
  }
  for (const verdict of differing) safeStdout.write(`judge verdict differs at goal turn ${verdict.turn} ("${verdict.condition}"): ${verdict.difference}\n`);
  return EXIT.providerError;
}

function reportAgainst(outcome: AgainstOutcome): number {
  if (outcome.diverged === false) {
    safeStdout.write(`no divergence: the live model made the recorded calls through turn ${outcome.turns - 1} and answered at turn ${outcome.turns}.\n`);
    return EXIT.answered;
  }
  if (outcome.diverged === 'stopped') {
    safeStdout.write(`the live run stopped at turn ${outcome.turn} before diverging or finishing (${outcome.reason}${outcome.error ? `: ${outcome.error}` : ''}).\n`);
    return EXIT.providerError;
  }
  safeStdout.write(`diverges at turn ${outcome.turn}\n  recorded: ${outcome.recorded}\n  live:     ${outcome.now}\n`);
  return EXIT.providerError;
}
