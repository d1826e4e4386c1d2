import type { Hooks } from '../hooks/hooks.js';

/**
 * SessionStart and UserPromptSubmit for one prompt: a block stops it before the model sees it;
 * what the hooks add (plain stdout, additionalContext) goes with the prompt.
 */
export async function promptThroughHooks(hooks: Hooks | undefined, prompt: string, session: { id: string | undefined; resumed: boolean }): Promise<{ input: string } | { blocked: string }> {
  if (!hooks) return { input: prompt };
  hooks.sessionId = session.id ?? '';
  const start = await hooks.run('SessionStart', { source: session.resumed ? 'resume' : 'startup' });
  const submit = await hooks.run('UserPromptSubmit', { prompt });
  if (submit.blocked !== undefined) return { blocked: submit.blocked };
  const context = [...start.context, ...submit.context];
  return { input: context.length ? `${prompt}\n\n<hook-context>\n${context.join('\n')}\n</hook-context>` : prompt };
}
