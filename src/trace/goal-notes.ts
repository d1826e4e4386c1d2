import type { RawRecord } from '../session/read-session.js';

/** A goal's notice as one line of a turn's notes on the trace page (undefined: not a goal notice). */
export function goalNote(raw: RawRecord): string | undefined {
  switch (raw.type) {
    case 'goal_start':
      return `Goal${raw.resumed === true ? ' (resumed)' : ''}: ${String(raw.condition ?? '')} — judge ${String(raw.judge ?? '')}, caps ${JSON.stringify(raw.caps ?? {})}`;
    case 'goal_verdict': {
      const checks = Array.isArray(raw.checks) ? raw.checks.map((check: { name?: unknown; exit_code?: unknown }) => `${String(check.name)} → exit ${String(check.exit_code)}`).join(', ') : '';
      const evidence = Array.isArray(raw.evidence) ? JSON.stringify(raw.evidence) : '[]';
      return `Goal judgement (turn ${String(raw.turn ?? '?')}): ${raw.accepted === true ? 'met' : 'not met'} (the judge said ${String(raw.status ?? '')}): ${String(raw.reason ?? '')}; checks run: ${checks || 'none'}; evidence cited: ${evidence}`;
    }
    case 'goal_end':
      return `Goal ended, ${String(raw.outcome ?? '')}: ${String(raw.reason ?? '')}${spentText(raw.spent)}`;
    default:
      return undefined;
  }
}

function spentText(spent: unknown): string {
  if (spent === null || typeof spent !== 'object') return '';
  const { turns, tokens, agentCost, judgeCost, elapsedMs } = spent as Record<string, unknown>;
  const cost = (typeof agentCost === 'number' ? agentCost : 0) + (typeof judgeCost === 'number' ? judgeCost : 0);
  return ` (spent ${String(turns)} turns, ${String(tokens)} tokens, $${cost.toFixed(4)}, ${Math.round(Number(elapsedMs) / 1000)} s)`;
}

/** One goal of the session as the trace's JSON carries it: its caps, each verdict with its evidence, and its end. */
export interface TraceGoal {
  condition: string;
  judge: string;
  caps: Record<string, unknown>;
  checksAllowed: string[];
  resumed?: true;
  verdicts: Array<{ turn: number; status: string; accepted: boolean; reason: string; evidence: unknown[]; checks: unknown[]; cost?: number; digests: string[] }>;
  end?: { outcome: string; reason: string; spent: unknown; report: string };
}

/** The session's goals from its records, in order (a record of another type is ignored). */
export function traceGoals(records: readonly RawRecord[]): TraceGoal[] {
  const goals: TraceGoal[] = [];
  for (const raw of records) {
    const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
    if (raw.type === 'goal_start') {
      goals.push({ condition: String(raw.condition ?? ''), judge: String(raw.judge ?? ''), caps: (raw.caps as Record<string, unknown>) ?? {}, checksAllowed: list(raw.checks).map(String), ...(raw.resumed === true ? { resumed: true as const } : {}), verdicts: [] });
    }
    const goal = goals.at(-1);
    if (!goal) continue;
    if (raw.type === 'goal_verdict') {
      goal.verdicts.push({
        turn: Number(raw.turn ?? 0),
        status: String(raw.status ?? ''),
        accepted: raw.accepted === true,
        reason: String(raw.reason ?? ''),
        evidence: list(raw.evidence),
        checks: list(raw.checks),
        ...(typeof raw.cost === 'number' ? { cost: raw.cost } : {}),
        digests: list(raw.digests).map(String),
      });
    }
    if (raw.type === 'goal_end') goal.end = { outcome: String(raw.outcome ?? ''), reason: String(raw.reason ?? ''), spent: raw.spent, report: String(raw.report ?? '') };
  }
  return goals;
}
