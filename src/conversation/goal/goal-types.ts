import type { Usage } from '../../contracts/messages.js';
import type { SideExchange } from '../../side-model/ask-side-model.js';

/** Limits set when a goal starts, counted for the whole tree (subagents) and the judge together. */
export interface GoalCaps {
  /** US dollars (list prices); spending above it ends the goal. */
  maxCost: number;
  /** Input plus output tokens. */
  maxTokens: number;
  /** Working turns: prompts the agent runs for the goal (the wrap-up turn is not counted). */
  maxTurns: number;
  /** Wall time in milliseconds. */
  maxMs: number;
}

/** The caps when neither flags nor config say otherwise (docs/goals.md says why). */
export const DEFAULT_GOAL_CAPS: GoalCaps = { maxCost: 5, maxTokens: 2_000_000, maxTurns: 20, maxMs: 60 * 60_000 };

/** The same judge reason, or the same calls with the same results, this many turns in a row: blocked. */
export const DEFAULT_STALL_TURNS = 3;

/** One piece of evidence the judge cites: a check it ran and its exit code, or a line of a file it read. */
export type GoalEvidence = { check: string; exit_code: number } | { file: string; line: number; text: string };

/** The judge's answer, read strictly. */
export interface JudgeAnswer {
  status: 'met' | 'not_met';
  reason: string;
  evidence: GoalEvidence[];
}

/** A read-only check the judge ran: what the evidence must match. */
export interface CheckRun {
  name: string;
  exitCode: number;
  /** For `read:PATH`: the file's lines, to match cited lines against. */
  lines?: string[];
  output: string;
}

/** What the goal has spent so far. */
export interface GoalSpent {
  turns: number;
  tokens: number;
  /** Dollars, by who spent them (the agent's tree, the judge); undefined while no price is known. */
  agentCost: number;
  judgeCost: number;
  agentUsage: Usage;
  judgeUsage: Usage;
  elapsedMs: number;
}

/** How a goal ended. `blocked`: no progress, or an approval nobody can give. */
export type GoalOutcome = 'met' | 'cap' | 'blocked' | 'cleared' | 'aborted';

/** The conversation's goal notices: in the session file, --json and the trace like every event. */
export type GoalNotice =
  | { type: 'goal_start'; condition: string; caps: GoalCaps; stallTurns: number; checks: string[]; judge: string; resumed?: boolean }
  | {
      type: 'goal_verdict';
      turn: number;
      judge: string;
      /** The judge's own answer, before evidence was checked (`not_met` also when it gave none). */
      status: 'met' | 'not_met';
      /** Whether the goal counts as met: "met" with evidence that matches a check the judge ran. */
      accepted: boolean;
      reason: string;
      evidence: GoalEvidence[];
      checks: Array<{ name: string; exit_code: number }>;
      /** The judge's requests' digests (replay and audit). */
      digests: string[];
      /** The judge's requests and replies, as the reviewer's are kept: replay rebuilds and re-reads them. */
      exchanges?: SideExchange[];
      usage: Usage;
      cost?: number;
      spent: GoalSpent;
    }
  | { type: 'goal_end'; outcome: GoalOutcome; reason: string; spent: GoalSpent; report: string };

/** The abort reason that ends a goal as `cleared` (a person's /goal clear, DELETE …/goal) rather than `aborted`. */
export const GOAL_CLEARED = 'the goal was cleared';

export const GOAL_NOTICE_TYPES = ['goal_start', 'goal_verdict', 'goal_end'] as const;
