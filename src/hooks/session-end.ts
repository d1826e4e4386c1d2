import type { Hooks } from './hooks.js';

/** Claude Code's `reason`s: `clear` (/clear), `prompt_input_exit` (the TUI closed), `other` (a one-shot run or an editor's session ended). */
export type SessionEndReason = 'clear' | 'prompt_input_exit' | 'other';

/** Runs the SessionEnd hooks; like Claude Code's, they cannot stop anything, so what they decide is not read. */
export async function endSession(hooks: Hooks | undefined, reason: SessionEndReason): Promise<void> {
  if (hooks?.has('SessionEnd')) await hooks.run('SessionEnd', { reason });
}
