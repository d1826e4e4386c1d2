import { createHash } from 'node:crypto';
import type { AgentEvent } from '../../contracts/events.js';
import type { Message } from '../../contracts/messages.js';
import type { SideModel } from '../../side-model/ask-side-model.js';
import type { CheckRunner } from './goal-checks.js';
import { judgeGoal, type Judgement } from './goal-judge.js';
import { GoalLedger } from './goal-ledger.js';
import { goalReport } from './goal-report.js';
import { GOAL_CLEARED, type GoalCaps, type GoalNotice, type GoalOutcome, type GoalSpent } from './goal-types.js';

/** What a goal needs of its conversation: the core's prompt, events, history and a way to record its notices. */
export interface GoalHost {
  prompt(text: string, options: { signal?: AbortSignal; refuseTools?: string }): Promise<{ reason: string; answer?: string | null }>;
  subscribe(listener: (event: { type: string }) => void): () => void;
  history(): readonly Message[];
  note(notice: GoalNotice): void;
}

export interface GoalSpec {
  condition: string;
  caps: GoalCaps;
  stallTurns: number;
  /** The commands the judge may run (besides reading files). */
  checks: readonly string[];
  judge: SideModel;
  runCheck: CheckRunner;
  /** The first prompt (default: the condition, as work to do). */
  firstPrompt?: string;
  /** A resumed goal: what it had spent (its caps count on from there). */
  resumed?: GoalSpent;
  /** How many calls so far were refused for an approval nobody can give (a headless run). */
  unaskable?: () => number;
  /** Stops the goal: aborted with GOAL_CLEARED as its reason, it ends `cleared`; otherwise `aborted`. */
  signal?: AbortSignal;
  /** Whether the stop `signal` gave was the user ending the goal (`/goal clear`) rather than a cancel. */
  cleared?: () => boolean;
}

export interface GoalResult {
  outcome: GoalOutcome;
  reason: string;
  /** `blocked` on an approval nobody can give. */
  approval?: boolean;
  report: string;
  spent: GoalSpent;
}

/** A task given with its goal (`vibe-agent "fix it" --goal "npm test passes"`): the first turn's prompt. */
export const taskWithGoal = (task: string, condition: string) => `${task}\n\nWork until this goal holds: ${condition}`;

const workPrompt = (condition: string) => `Work until this goal holds: ${condition}\nAn independent judge checks it after each of your turns by running read-only checks.`;
const againPrompt = (reason: string) => `The goal does not hold yet. The judge's reason: ${reason}\nKeep working toward it.`;
const wrapUpPrompt = (why: string) => `The goal stops here: ${why}. Do not start new work: no tool will run. Report honestly what is done, what you changed, what is unverified and what is left.`;

/**
 * Runs a goal: the agent works turn after turn, and after each an independent judge (another model,
 * with read-only checks) says whether the condition holds, citing evidence that must match a check
 * it ran. It stops when the judge's "met" holds, at a cap (after one wrap-up turn whose tool calls
 * are refused), when there is no progress, on an approval nobody can give, or when cancelled.
 */
export async function pursueGoal(host: GoalHost, spec: GoalSpec): Promise<GoalResult> {
  const ledger = new GoalLedger(spec.caps, spec.stallTurns, spec.resumed);
  host.note({ type: 'goal_start', condition: spec.condition, caps: spec.caps, stallTurns: spec.stallTurns, checks: [...spec.checks], judge: spec.judge.model, ...(spec.resumed ? { resumed: true } : {}) });
  let text = spec.firstPrompt ?? workPrompt(spec.condition);
  let last: Judgement | undefined;
  const end = (outcome: GoalOutcome, reason: string, extra: { approval?: boolean } = {}): GoalResult => {
    const spent = ledger.snapshot();
    const report = goalReport({ condition: spec.condition, outcome, reason, judgement: last, history: host.history(), spent, caps: spec.caps });
    host.note({ type: 'goal_end', outcome, reason, spent, report });
    return { outcome, reason, report, spent, ...extra };
  };
  const stopped = () => (spec.cleared?.() || spec.signal?.reason === GOAL_CLEARED ? end('cleared', 'the user cleared the goal') : end('aborted', 'the goal was cancelled'));
  for (;;) {
    const cap = ledger.capReached();
    if (cap) return wrapUp(host, ledger, cap, spec.signal, () => end('cap', `${cap} is reached`));
    const unaskedBefore = spec.unaskable?.() ?? 0;
    const turn = await runTurn(host, text, ledger.msLeft(), spec.signal);
    ledger.agentTurn(turn.usage, turn.cost);
    if (spec.signal?.aborted) return stopped();
    if (turn.timedOut) return wrapUp(host, ledger, ledger.capReached() ?? 'the time cap', spec.signal, () => end('cap', `${ledger.capReached() ?? 'the time cap'} is reached`));
    if ((spec.unaskable?.() ?? 0) > unaskedBefore) return end('blocked', 'the agent needs an approval nobody can give here; the goal stops instead of asking again', { approval: true });
    last = await judgeGoal(spec.judge, { condition: spec.condition, history: host.history(), checks: spec.checks }, spec.runCheck, spec.signal);
    ledger.judged(last.side.usage, last.side.cost);
    const reason = last.accepted || !last.rejection || last.answer.status !== 'met' ? last.answer.reason : `${last.rejection}, so it is not met`;
    host.note({
      type: 'goal_verdict',
      turn: ledger.snapshot().turns,
      judge: spec.judge.model,
      status: last.answer.status,
      accepted: last.accepted,
      reason,
      evidence: last.answer.evidence,
      checks: last.runs.map((run) => ({ name: run.name, exit_code: run.exitCode })),
      digests: last.side.exchanges.map((exchange) => exchange.digest),
      exchanges: last.side.exchanges,
      usage: last.side.usage,
      ...(last.side.cost !== undefined ? { cost: last.side.cost } : {}),
      spent: ledger.snapshot(),
    });
    if (last.accepted) return end('met', last.answer.reason);
    if (spec.signal?.aborted) return stopped();
    const stuck = ledger.stalled(reason, turn.workPrint);
    if (stuck) return end('blocked', stuck);
    text = againPrompt(reason);
  }
}

interface TurnResult {
  usage: import('../../contracts/messages.js').Usage;
  cost: number | undefined;
  workPrint: string;
  timedOut: boolean;
}

/** One prompt, watched: its whole tree's spend (the top-level stop) and a fingerprint of its calls and results. */
async function runTurn(host: GoalHost, text: string, msLeft: number, outer: AbortSignal | undefined, refuseTools?: string): Promise<TurnResult> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  outer?.addEventListener('abort', stop, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, msLeft);
  const calls = new Map<string, string>();
  const work = createHash('sha256');
  let usage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
  let cost: number | undefined;
  const off = host.subscribe((raw) => {
    const event = raw as AgentEvent;
    if (event.type === 'tool_call_start') calls.set(event.call.id, `${event.call.name} ${event.call.arguments}`);
    if (event.type === 'tool_call_end') work.update(`${calls.get(event.id) ?? event.name}\0${event.status}\0${event.output}\0`);
    if (event.type === 'stop' && event.agent === undefined) {
      usage = { ...usage, ...event.usage };
      cost = event.cost;
    }
  });
  try {
    await host.prompt(text, { signal: controller.signal, ...(refuseTools ? { refuseTools } : {}) });
  } finally {
    off();
    clearTimeout(timer);
    outer?.removeEventListener('abort', stop);
  }
  return { usage, cost, workPrint: work.digest('hex'), timedOut };
}

/** The one wrap-up turn after a cap: the agent reports, and every tool call it tries is refused. */
async function wrapUp(host: GoalHost, ledger: GoalLedger, cap: string, signal: AbortSignal | undefined, end: () => GoalResult): Promise<GoalResult> {
  if (!signal?.aborted) {
    // Bounded on its own: a model that ignores the refusals still stops at the conversation's turn limit.
    const turn = await runTurn(host, wrapUpPrompt(`${cap} is reached`), 10 * 60_000, signal, `the goal's ${cap} is reached: the wrap-up turn starts no new work`);
    ledger.agentTurn(turn.usage, turn.cost, false);
  }
  return end();
}
