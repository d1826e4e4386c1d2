import type { StopReason } from '../contracts/events.js';
import type { Hooks } from './hooks.js';

/** How many times Stop hooks may send the agent back to work in one run before it ends anyway. */
export const MAX_STOP_CONTINUATIONS = 3;

/**
 * Runs the Stop hooks after a run ended (SubagentStop's after a subagent's, given `subagent`). Claude Code's semantics: a block (exit code 2, or
 * `{"decision":"block","reason":…}`) after an answer means "not done yet": the reason is returned
 * to be sent as the next user message. `round` counts the continuations so far; it is sent as
 * `stop_hook_active` (a hook can use it to let go) and bounds the loop a hook could cause.
 */
export async function continueAfterStop(hooks: Hooks | undefined, reason: StopReason, round: number, warn: (message: string) => void, subagent?: { agent_id: string; agent_type: string }): Promise<string | undefined> {
  const event = subagent ? 'SubagentStop' : 'Stop';
  if (!hooks?.has(event)) return undefined;
  const outcome = await hooks.run(event, { stop_hook_active: round > 0, stop_reason: reason, ...(subagent ? { ...subagent, agent_transcript_path: '' } : {}) });
  if (outcome.blocked === undefined || reason !== 'answered') return undefined;
  if (round >= MAX_STOP_CONTINUATIONS) {
    warn(`a ${event} hook blocked the stop again after ${MAX_STOP_CONTINUATIONS} continuations; the run ends anyway (its reason: ${outcome.blocked}).`);
    return undefined;
  }
  return outcome.blocked;
}
