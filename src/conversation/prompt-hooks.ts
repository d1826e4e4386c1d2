import type { Hooks } from '../hooks/hooks.js';

export interface PromptSession {
  id: string | undefined;
  /** The session's file, sent as `transcript_path` (our JSONL records, not Claude Code's). */
  path?: string | undefined;
  resumed: boolean;
  /** Whether this prompt starts the session (SessionStart runs then only); default true. */
  starts?: boolean;
  /** SessionStart's `source`: by default `resume` or `startup`; `clear` after /clear. */
  source?: 'startup' | 'resume' | 'clear';
}

/**
 * SessionStart (when the prompt starts a session) and UserPromptSubmit for one prompt, in
 * one-shot and interactive mode alike: a block stops it before the model sees it; what the
 * hooks add (plain stdout, additionalContext) goes with the prompt.
 */
export async function promptThroughHooks(hooks: Hooks | undefined, prompt: string, session: PromptSession): Promise<{ input: string } | { blocked: string }> {
  if (!hooks) return { input: prompt };
  hooks.sessionId = session.id ?? '';
  hooks.transcriptPath = session.path ?? '';
  const start = session.starts === false ? { context: [] } : await hooks.run('SessionStart', { source: session.source ?? (session.resumed ? 'resume' : 'startup') });
  const submit = await hooks.run('UserPromptSubmit', { prompt });
  if (submit.blocked !== undefined) return { blocked: submit.blocked };
  const context = [...start.context, ...submit.context];
  return { input: context.length ? `${prompt}\n\n<hook-context>\n${context.join('\n')}\n</hook-context>` : prompt };
}
