import type { ConversationEvent } from '../../conversation/conversation-types.js';
import type { UnfinishedGoal } from '../../conversation/goal/goal-resume.js';
import type { GoalCaps, GoalNotice, GoalSpent } from '../../conversation/goal/goal-types.js';
import type { GoalSpec } from '../../conversation/goal/pursue-goal.js';
import type { Theme } from '../display/theme.js';
import { visibleText } from '../display/visible-text.js';

/** What /goal needs from the CLI: the judge, its checks and the caps from settings, and the session's unfinished goal. */
export interface TuiGoals {
  /** The caps, the judge and its checks (set up at the first /goal: a judge without a key is an error then). */
  setup(): Promise<Pick<GoalSpec, 'caps' | 'stallTurns' | 'checks' | 'judge' | 'runCheck'>>;
  /** The current conversation's goal that started and never ended (a resumed session's), from its stored events. */
  unfinished(): UnfinishedGoal | undefined;
}

/** The goal this terminal session pursues: one at a time, shown in the status line. */
export class ActiveGoal {
  private spent: GoalSpent | undefined;
  private readonly startedAt = Date.now();
  readonly controller = new AbortController();
  cleared = false;

  constructor(
    readonly condition: string,
    readonly caps: GoalCaps,
    /** What a resumed goal had spent before this process took it up. */
    private readonly before: GoalSpent | undefined,
  ) {
    this.spent = before;
  }

  /** Follows the goal's verdicts (their running totals). */
  track(event: ConversationEvent): void {
    if (event.type === 'goal_verdict') this.spent = event.spent;
  }

  /** The status line's part: turns, cost and time so far, against the caps. */
  status(): string {
    const { caps } = this;
    const cost = this.spent ? this.spent.agentCost + this.spent.judgeCost : 0;
    const ms = (this.before?.elapsedMs ?? 0) + (Date.now() - this.startedAt);
    return `goal ${this.spent?.turns ?? 0}/${caps.maxTurns} turns · $${cost.toFixed(2)}/$${caps.maxCost} · ${minutes(ms)}/${minutes(caps.maxMs)}`;
  }

  /** `/goal` alone: the condition and the status. */
  lines(t: Theme): string[] {
    return [`${t.bold('Goal:')} ${visibleText(this.condition)}`, t.dim(`  ${this.status()} · /goal clear ends it`)];
  }
}

const minutes = (ms: number) => `${Math.floor(ms / 60_000)}m${String(Math.floor((ms % 60_000) / 1000)).padStart(2, '0')}s`;

/** The caps in words, as the goal starts. */
export function capsLine(caps: GoalCaps, stallTurns: number): string {
  return `caps: ${caps.maxTurns} turns, $${caps.maxCost}, ${caps.maxTokens.toLocaleString('en-US')} tokens, ${Math.round(caps.maxMs / 60_000)} min; blocked after ${stallTurns} turns without progress`;
}

/** A goal notice as scrollback lines (undefined for other events). */
export function goalNoticeLines(event: ConversationEvent, t: Theme): string[] | undefined {
  if (!event.type.startsWith('goal_')) return undefined;
  const notice = event as GoalNotice & { seq: number };
  switch (notice.type) {
    case 'goal_start':
      return ['', `${t.cyan('◎')} ${t.bold(`Goal${notice.resumed ? ' (resumed)' : ''}:`)} ${visibleText(notice.condition)}`, t.dim(`  ${capsLine(notice.caps, notice.stallTurns)}; judge ${notice.judge}; checks: ${notice.checks.join(', ') || 'none'}`), ''];
    case 'goal_verdict': {
      const checks = notice.checks.length ? ` (ran ${notice.checks.map((check) => `${check.name}: exit ${check.exit_code}`).join(', ')})` : '';
      const word = notice.accepted ? t.green('met') : t.yellow('not met');
      return ['', `${t.cyan('◎')} goal turn ${notice.turn}: ${word}: ${visibleText(notice.reason)}${checks}`, ''];
    }
    case 'goal_end':
      return ['', `${t.cyan('◎')} ${t.bold(`Goal ${notice.outcome}:`)} ${visibleText(notice.reason)}`, ...visibleText(notice.report).split('\n').map((line) => t.dim(`  ${line}`)), ''];
  }
}
