import type { AgentOptions, RunResult } from '../core/agent-options.js';
import type { ChildRun } from '../agents/agent-tree.js';
import { runAgent } from '../core/loop.js';

/**
 * A subagent's run, as the core runs its own prompts: the agent's events go to the parent's stream
 * (and from there into the parent's record), then SubagentStop hooks may send it back to work with
 * their reason, as Stop hooks do for a conversation (run-rounds.ts). The child's options come from
 * the tree (agents/subagents.ts): its own tools, budget share and context state (`contextForAgent`).
 */
export async function runChildConversation(options: AgentOptions, child: ChildRun): Promise<RunResult> {
  let current = options;
  for (let round = 0; ; round++) {
    const run = runAgent(current);
    let next = await run.next();
    for (; !next.done; next = await run.next()) child.emit(next.value);
    const more = await child.onStop?.({ path: child.path, agent: child.agent, reason: next.value.stopReason, round });
    if (more === undefined) return next.value;
    current = { ...current, messages: next.value.messages, input: more };
  }
}
