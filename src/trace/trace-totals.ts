import type { Usage } from '../contracts/messages.js';
import type { TraceTotals, TraceTurn } from './trace-data.js';

/** The session's totals: every request of every agent (subagents' turns included), every tool call. */
export function sumTotals(turns: readonly TraceTurn[], runs: number): TraceTotals {
  const totals: TraceTotals = { runs, turns: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, toolCalls: 0, toolErrors: 0, retries: 0, compactions: 0, subagentTurns: 0 };
  const addUsage = (usage: Usage | undefined) => {
    if (!usage) return;
    totals.inputTokens += usage.inputTokens || 0;
    totals.cachedInputTokens += usage.cachedInputTokens || 0;
    totals.outputTokens += usage.outputTokens || 0;
    totals.reasoningTokens += usage.reasoningTokens || 0;
  };
  const visit = (turn: TraceTurn, nested: boolean) => {
    if (nested) totals.subagentTurns++;
    else totals.turns++;
    addUsage(turn.usage);
    addUsage(turn.extraUsage);
    if (turn.cost !== undefined) totals.cost = (totals.cost ?? 0) + turn.cost;
    totals.retries += turn.retries.length;
    totals.compactions += turn.compactions.length;
    for (const call of turn.tools) {
      totals.toolCalls++;
      if (call.isError || call.status === 'denied') totals.toolErrors++;
      for (const sub of call.subagent?.turns ?? []) visit(sub, true);
    }
  };
  for (const turn of turns) visit(turn, turn.agent !== 'main');
  return totals;
}
