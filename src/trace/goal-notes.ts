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
      return `Goal ended, ${String(raw.outcome ?? '')}: ${String(raw.reason ?? '')}`;
    default:
      return undefined;
  }
}
