import type { Message } from '../../contracts/messages.js';
import type { Judgement } from './goal-judge.js';
import type { GoalCaps, GoalEvidence, GoalOutcome, GoalSpent } from './goal-types.js';

export interface ReportInput {
  condition: string;
  outcome: GoalOutcome;
  reason: string;
  judgement: Judgement | undefined;
  history: readonly Message[];
  spent: GoalSpent;
  caps: GoalCaps;
}

const WRITING_TOOL = /write|edit|patch|apply|create|delete|move|rename/i;
const dollars = (value: number) => `$${value.toFixed(4)}`;
const tokens = (usage: { inputTokens: number; outputTokens: number }) => usage.inputTokens + usage.outputTokens;

/**
 * The goal's final report, in plain lines: met or not and why, the evidence the judge cited (and the
 * checks it ran), the files the agent's calls changed, what is unverified, and the cost by agent and
 * judge against the caps.
 */
export function goalReport(input: ReportInput): string {
  const { spent, caps, judgement } = input;
  const lines = [`Goal: ${input.condition}`, `Outcome: ${headline(input.outcome)}: ${input.reason}`];
  const evidence = input.outcome === 'met' && judgement ? judgement.answer.evidence : [];
  lines.push(`Evidence: ${evidence.length ? evidence.map(evidenceText).join('; ') : 'none accepted'}`);
  if (judgement?.runs.length) lines.push(`Checks the judge ran last: ${judgement.runs.map((run) => `${run.name} (exit ${run.exitCode})`).join(', ')}`);
  const changed = changedPaths(input.history);
  lines.push(`Changed: ${changed.length ? changed.join(', ') : 'no file through a writing tool'} (shell commands may have changed more)`);
  lines.push(`Unverified: ${input.outcome === 'met' ? 'anything the cited checks do not cover' : 'the goal itself: no check the judge ran showed it holds'}`);
  lines.push(
    `Spent: ${spent.turns} of ${caps.maxTurns} turns, ${Math.round(spent.elapsedMs / 1000)} s of ${Math.round(caps.maxMs / 1000)} s, ${spent.tokens} of ${caps.maxTokens} tokens, ${dollars(spent.agentCost + spent.judgeCost)} of $${caps.maxCost}`,
    `Cost by agent: ${dollars(spent.agentCost)} (${tokens(spent.agentUsage)} tokens); judge: ${dollars(spent.judgeCost)} (${tokens(spent.judgeUsage)} tokens)`,
  );
  return lines.join('\n');
}

function headline(outcome: GoalOutcome): string {
  switch (outcome) {
    case 'met':
      return 'met';
    case 'cap':
      return 'not met, a cap was reached';
    case 'blocked':
      return 'not met, blocked';
    case 'cleared':
      return 'not met, cleared';
    case 'aborted':
      return 'not met, cancelled';
  }
}

function evidenceText(item: GoalEvidence): string {
  return 'check' in item ? `${item.check} exited ${item.exit_code}` : `${item.file}:${item.line} says "${item.text}"`;
}

/** The paths the agent's writing tools were called with (their `path` argument), each once. */
function changedPaths(history: readonly Message[]): string[] {
  const paths = new Set<string>();
  for (const message of history) {
    if (message.role !== 'assistant') continue;
    for (const call of message.toolCalls) {
      if (!WRITING_TOOL.test(call.name)) continue;
      try {
        const args = JSON.parse(call.arguments) as { path?: unknown };
        if (typeof args.path === 'string') paths.add(args.path);
      } catch {
        // Arguments that are not JSON name no path.
      }
    }
  }
  return [...paths];
}
