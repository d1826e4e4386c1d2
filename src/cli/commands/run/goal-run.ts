import { createInterface } from 'node:readline/promises';
import type { AgentEvent } from '../../../contracts/events.js';
import type { ConversationCore } from '../../../conversation/open-conversation.js';
import { agentEventOf } from '../../../conversation/prompt-events.js';
import { pursueGoal, taskWithGoal, type GoalResult } from '../../../conversation/goal/pursue-goal.js';
import { capsLeft, unfinishedGoal } from '../../../conversation/goal/goal-resume.js';
import type { GoalNotice } from '../../../conversation/goal/goal-types.js';
import type { ConversationEvent } from '../../../conversation/conversation-types.js';
import { safeStderr, safeStdout } from '../../display/safe-output.js';
import { EXIT } from '../../settings/exit-codes.js';
import { UsageError } from '../../settings/usage-error.js';
import type { PreparedRun } from '../../setup/prepare-run.js';
import { goalSetup } from '../../setup/goal-setup.js';
import { agentEnvironment } from '../../../secrets/held-secrets.js';

export interface GoalRunOptions {
  prompt: string | undefined;
  resumed: boolean;
  json: boolean;
  /** Whether a person is at a terminal to ask (the consent before a resumed goal continues). */
  interactive: boolean;
  render(event: AgentEvent): void;
  unaskable(): number;
  signal: AbortSignal;
  warn(text: string): void;
}

/**
 * Which goal a one-shot run pursues: `--goal` (a new one), or a resumed session's unfinished goal
 * when the person says so (`--continue-goal`, or yes at the terminal's question). Undefined: no
 * goal (the prompt runs once); a headless resume never continues a goal on its own.
 */
export async function chooseGoal(conversation: ConversationCore, prepared: PreparedRun, options: Pick<GoalRunOptions, 'resumed' | 'interactive' | 'prompt'>): Promise<{ condition: string; resumed?: ReturnType<typeof unfinishedGoal> } | undefined> {
  const { settings } = prepared;
  const open = options.resumed ? unfinishedGoal(conversation.events()) : undefined;
  if (settings.goal !== undefined) {
    if (settings.goal.trim() === '') throw new UsageError('--goal needs a condition: --goal "npm test passes".');
    return { condition: settings.goal.trim() };
  }
  if (!open) {
    if (settings.continueGoal) throw new UsageError('--continue-goal: this session has no unfinished goal.');
    return undefined;
  }
  const left = capsLeft(open);
  if (settings.continueGoal) return { condition: open.start.condition, resumed: open };
  if (options.interactive && (await askYes(`This session has an unfinished goal: "${open.start.condition}" (left: ${left}). Continue it? [y/N] `))) return { condition: open.start.condition, resumed: open };
  safeStderr.write(`vibe-agent: this session has an unfinished goal ("${open.start.condition}"; left: ${left}); it is not continued${options.interactive ? '' : ': pass --continue-goal to continue it'}.\n`);
  if (options.prompt === undefined) throw new UsageError('No prompt given, and the unfinished goal is not continued.');
  return undefined;
}

/** Runs the goal through the conversation core, rendering its events; the exit code (0 met, 3 cap or no progress, 4 approval, 130 cancelled). */
export async function runGoal(conversation: ConversationCore, prepared: PreparedRun, goal: { condition: string; resumed?: ReturnType<typeof unfinishedGoal> }, options: GoalRunOptions): Promise<number> {
  const setup = await goalSetup(prepared.settings, prepared, agentEnvironment(), options.warn);
  const caps = goal.resumed ? goal.resumed.start.caps : setup.caps;
  const off = conversation.subscribe((event) => show(event, options));
  let result: GoalResult;
  try {
    result = await pursueGoal(conversation, {
      condition: goal.condition,
      caps,
      stallTurns: setup.stallTurns,
      checks: setup.checks,
      judge: setup.judge,
      runCheck: setup.runCheck,
      ...(options.prompt !== undefined ? { firstPrompt: taskWithGoal(options.prompt, goal.condition) } : {}),
      ...(goal.resumed?.spent ? { resumed: goal.resumed.spent } : {}),
      unaskable: options.unaskable,
      signal: options.signal,
    });
  } finally {
    off();
  }
  if (!options.json) safeStdout.write(`\n${result.report}\n`);
  switch (result.outcome) {
    case 'met':
    case 'cleared':
      return EXIT.answered;
    case 'aborted':
      return EXIT.aborted;
    case 'blocked':
      return result.approval ? EXIT.approvalNeeded : EXIT.brake;
    case 'cap':
      return EXIT.brake;
  }
}

function show(event: ConversationEvent, options: GoalRunOptions): void {
  const agentEvent = agentEventOf(event);
  if (agentEvent) return options.render(agentEvent);
  if (!event.type.startsWith('goal_')) {
    if (event.type === 'prompt_notes') for (const note of event.notes) safeStderr.write(`vibe-agent: ${note}\n`);
    return;
  }
  const { seq: _seq, ...notice } = event as GoalNotice & { seq: number };
  // --json carries the goal's notices as lines like every event (through the same redaction).
  if (options.json) return options.render(notice as unknown as AgentEvent);
  safeStderr.write(`${goalLine(notice)}\n`);
}

function goalLine(notice: GoalNotice): string {
  switch (notice.type) {
    case 'goal_start': {
      const { caps } = notice;
      return `vibe-agent: goal${notice.resumed ? ' (resumed)' : ''}: ${notice.condition}\nvibe-agent: caps: ${caps.maxTurns} turns, $${caps.maxCost}, ${caps.maxTokens} tokens, ${Math.round(caps.maxMs / 60_000)} min; blocked after ${notice.stallTurns} turns without progress; judge ${notice.judge}, checks: ${notice.checks.join(', ')}, read:PATH`;
    }
    case 'goal_verdict': {
      const checks = notice.checks.length ? ` (ran ${notice.checks.map((check) => `${check.name}: exit ${check.exit_code}`).join(', ')})` : '';
      const cost = notice.spent.agentCost + notice.spent.judgeCost;
      return `vibe-agent: goal turn ${notice.turn}: ${notice.accepted ? 'met' : 'not met'}: ${notice.reason}${checks} [${notice.spent.turns} turns, $${cost.toFixed(4)}, ${Math.round(notice.spent.elapsedMs / 1000)} s]`;
    }
    case 'goal_end':
      return `vibe-agent: goal ${notice.outcome}: ${notice.reason}`;
  }
}

async function askYes(question: string): Promise<boolean> {
  const line = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await line.question(question)).trim());
  } finally {
    line.close();
  }
}
