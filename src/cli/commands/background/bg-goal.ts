import type { components, VibeClient } from '../../../client/index.js';
import type { CliArgs } from '../../args/cli-args.js';

export type GoalView = components['schemas']['Goal'];

/** A background session's task: the prompt, queued. */
export async function promptTask(client: VibeClient, id: string, text: string): Promise<{ goal?: GoalView }> {
  const prompted = await client.POST('/v1/sessions/{id}/prompts', { params: { path: { id } }, body: { text, mode: 'queue' } });
  if (prompted.error) throw new Error(`the session ${id} was made but its task was refused (${prompted.response.status}): ${prompted.error.error}`);
  return {};
}

/**
 * `--bg --goal CONDITION [TASK]`: the server pursues the goal in the session. Caps given as flags
 * go with it; the others are the server's settings for that workspace (the same config files).
 */
export async function setGoal(client: VibeClient, id: string, condition: string, args: CliArgs): Promise<{ goal: GoalView }> {
  const flags = args as CliArgs & { goalMaxCost?: number; goalMaxTokens?: number; goalMaxTurns?: number; goalMaxTimeMs?: number };
  const body = {
    condition,
    ...(args.prompt !== undefined && args.prompt.trim() !== '' ? { prompt: args.prompt } : {}),
    ...(flags.goalMaxCost !== undefined ? { maxCost: flags.goalMaxCost } : {}),
    ...(flags.goalMaxTokens !== undefined ? { maxTokens: flags.goalMaxTokens } : {}),
    ...(flags.goalMaxTurns !== undefined ? { maxTurns: flags.goalMaxTurns } : {}),
    ...(flags.goalMaxTimeMs !== undefined ? { maxMinutes: flags.goalMaxTimeMs / 60_000 } : {}),
  };
  const set = await client.POST('/v1/sessions/{id}/goal', { params: { path: { id } }, body });
  if (!set.data) throw new Error(`the session ${id} was made but its goal was refused (${set.response.status}): ${set.error?.error ?? 'no reason given'}`);
  return { goal: set.data };
}

/** One line for a goal: its condition, status, spend and what is left, the last verdict. */
export function goalLine(goal: GoalView): string {
  const { spent, left, caps } = goal;
  const verdict = goal.lastVerdict ? ` · last verdict (turn ${goal.lastVerdict.turn}): ${goal.lastVerdict.accepted ? 'met' : 'not met'}: ${goal.lastVerdict.reason}` : '';
  const end = goal.end ? ` · ${goal.end.reason}` : '';
  return (
    `goal ${goal.status}: ${goal.condition} · ${spent.turns} of ${caps.maxTurns} turns, $${spent.cost.toFixed(4)} of $${caps.maxCost}, ` +
    `${Math.round(spent.elapsedMs / 1000)} s of ${Math.round(caps.maxMs / 60_000)} min (left: ${left.turns} turns, $${left.cost.toFixed(2)}, ${left.tokens} tokens)${verdict}${end}`
  );
}
