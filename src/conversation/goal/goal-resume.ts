import type { GoalNotice, GoalSpent } from './goal-types.js';

type StartNotice = Extract<GoalNotice, { type: 'goal_start' }>;

export interface UnfinishedGoal {
  start: StartNotice;
  /** What it had spent by its last verdict (undefined: it never reached one). */
  spent: GoalSpent | undefined;
}

/** The session's goal that started and never ended, or was cancelled (Ctrl-C, the process stopped), from its stored events. */
export function unfinishedGoal(events: ReadonlyArray<{ type: string }>): UnfinishedGoal | undefined {
  let found: UnfinishedGoal | undefined;
  for (const event of events) {
    const notice = event as GoalNotice;
    if (notice.type === 'goal_start') found = { start: notice, spent: undefined };
    else if (notice.type === 'goal_verdict' && found) found.spent = notice.spent;
    // A cancelled goal (Ctrl-C, a killed process) may be continued, with consent; any other end is final.
    else if (notice.type === 'goal_end') found = notice.outcome === 'aborted' && found ? { ...found, spent: notice.spent } : undefined;
  }
  return found;
}

/** What is left of each cap, in words (the question before a resumed goal continues). */
export function capsLeft(goal: UnfinishedGoal): string {
  const { caps } = goal.start;
  const spent = goal.spent;
  const cost = spent ? spent.agentCost + spent.judgeCost : 0;
  return [
    `${caps.maxTurns - (spent?.turns ?? 0)} of ${caps.maxTurns} turns`,
    `$${Math.max(0, caps.maxCost - cost).toFixed(2)} of $${caps.maxCost}`,
    `${Math.max(0, caps.maxTokens - (spent?.tokens ?? 0))} of ${caps.maxTokens} tokens`,
    `${Math.round(Math.max(0, caps.maxMs - (spent?.elapsedMs ?? 0)) / 60_000)} of ${Math.round(caps.maxMs / 60_000)} min`,
  ].join(', ');
}
