import { SessionCheckpoints } from '../checkpoints/session-checkpoints.js';
import { createSession } from '../session/session-store.js';

/**
 * A land as one rewind point of the checkout: a session of its own in the repository's workspace whose
 * one prompt is the land, checkpointed before anything is written and after, so `vibe-agent rewind`
 * (the latest session there) puts back exactly what the land changed, and nothing else. Marked as a
 * land, so `--continue` and `--resume` there pass it by.
 */
export async function recordedLand<T>(repo: string, description: string, env: NodeJS.ProcessEnv, apply: () => T): Promise<{ result: T; sessionId: string }> {
  const session = createSession({ workspace: repo, env, kind: 'land' });
  try {
    session.writer.append({ type: 'run_start', provider: 'vibe-agent', model: 'land', tools: [], input: description });
    const store = new SessionCheckpoints({ workspace: repo, sessionId: session.id, env });
    await store.beforeTurn({ run: 1, turn: 1, prompt: description });
    const result = apply();
    await store.afterRun();
    return { result, sessionId: session.id };
  } finally {
    session.close();
  }
}
