import type { GoalCaps, GoalNotice, GoalOutcome, GoalSpent } from './goal-types.js';

type Numbered<T> = T & { seq?: number };
type StartNotice = Extract<GoalNotice, { type: 'goal_start' }>;
type VerdictNotice = Extract<GoalNotice, { type: 'goal_verdict' }>;
type EndNotice = Extract<GoalNotice, { type: 'goal_end' }>;

/** What is left of each cap (never below 0). */
export interface GoalLeft {
  turns: number;
  tokens: number;
  cost: number;
  ms: number;
}

/** A judgement as a front end shows it: the verdict and the evidence it cited, with the checks it ran. */
export type GoalVerdictView = Pick<VerdictNotice, 'turn' | 'judge' | 'status' | 'accepted' | 'reason' | 'evidence' | 'checks'> & { seq?: number };

/**
 * A session's goal as its events say it stands: the condition, the caps and what is left of each,
 * what it spent, the last verdict with its evidence, and how it ended. Read from the numbered
 * events (the record), so every front end and a restarted server see the same thing.
 */
export interface GoalState {
  condition: string;
  /** `running`: started and not ended (in a process that has since stopped, it shows so until resumed). */
  status: 'running' | GoalOutcome;
  judge: string;
  checks: string[];
  stallTurns: number;
  caps: GoalCaps;
  spent: { turns: number; tokens: number; cost: number; agentCost: number; judgeCost: number; elapsedMs: number };
  left: GoalLeft;
  lastVerdict?: GoalVerdictView;
  /** How it ended, when it has. */
  end?: { seq?: number; outcome: GoalOutcome; reason: string; report: string };
  startSeq?: number;
}

/** The session's latest goal from its events (undefined: none was ever set). */
export function goalState(events: ReadonlyArray<{ type: string; seq?: number }>, now: () => number = Date.now, startedAt?: number): GoalState | undefined {
  let start: Numbered<StartNotice> | undefined;
  let verdict: Numbered<VerdictNotice> | undefined;
  let end: Numbered<EndNotice> | undefined;
  for (const event of events) {
    const notice = event as Numbered<GoalNotice>;
    if (notice.type === 'goal_start') [start, verdict, end] = [notice, undefined, undefined];
    else if (notice.type === 'goal_verdict' && start) verdict = notice;
    else if (notice.type === 'goal_end' && start) end = notice;
  }
  if (!start) return undefined;
  const recorded: GoalSpent | undefined = end?.spent ?? verdict?.spent;
  // While it runs, wall time counts on from the last record (or from when this process started it).
  const elapsedMs = end ? end.spent.elapsedMs : Math.max(recorded?.elapsedMs ?? 0, startedAt !== undefined ? now() - startedAt : 0);
  const cost = recorded ? recorded.agentCost + recorded.judgeCost : 0;
  const spent = { turns: recorded?.turns ?? 0, tokens: recorded?.tokens ?? 0, cost, agentCost: recorded?.agentCost ?? 0, judgeCost: recorded?.judgeCost ?? 0, elapsedMs };
  const { caps } = start;
  return {
    condition: start.condition,
    status: end ? end.outcome : 'running',
    judge: start.judge,
    checks: start.checks,
    stallTurns: start.stallTurns,
    caps,
    spent,
    left: { turns: Math.max(0, caps.maxTurns - spent.turns), tokens: Math.max(0, caps.maxTokens - spent.tokens), cost: Math.max(0, caps.maxCost - cost), ms: Math.max(0, caps.maxMs - elapsedMs) },
    ...(verdict ? { lastVerdict: verdictView(verdict) } : {}),
    ...(end ? { end: { ...(end.seq !== undefined ? { seq: end.seq } : {}), outcome: end.outcome, reason: end.reason, report: end.report } } : {}),
    ...(start.seq !== undefined ? { startSeq: start.seq } : {}),
  };
}

function verdictView(notice: Numbered<VerdictNotice>): GoalVerdictView {
  return {
    ...(notice.seq !== undefined ? { seq: notice.seq } : {}),
    turn: notice.turn,
    judge: notice.judge,
    status: notice.status,
    accepted: notice.accepted,
    reason: notice.reason,
    evidence: notice.evidence,
    checks: notice.checks,
  };
}
