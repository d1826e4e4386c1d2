import { readBackgroundEntries, type BackgroundEntry } from '../../../background/background-registry.js';
import type { HostedAgents } from '../../../server/session-port.js';
import type { HostedSession } from '../../../server/session-port.js';
import { agentRow, type AgentRow, type HostedView } from '../background/agent-status.js';

/** How long a row waits for its session to open (a reopen from its file after a restart); past it the row says so and the others are not held. */
export const OPEN_WITHIN_MS = 20_000;

/**
 * The server's background sessions (GET /v1/agents): every entry of background/agents.jsonl not
 * discarded, each opened (reopened from its file after a restart, as any request naming it does)
 * and turned into its row by agentRow, the computation `vibe-agent agents` shows.
 */
export function servedAgents(env: NodeJS.ProcessEnv, openWithinMs = OPEN_WITHIN_MS): HostedAgents {
  const entries = () => readBackgroundEntries(env).filter((entry) => !entry.discarded);
  const rowOf = async (entry: BackgroundEntry, open: Open): Promise<AgentRow> => agentRow(entry, await viewOf(entry.id, open, openWithinMs));
  return {
    list: (open) => Promise.all(entries().map((entry) => rowOf(entry, open))),
    async get(id, open) {
      const entry = entries().find((one) => one.id === id);
      return entry && rowOf(entry, open);
    },
  };
}

type Open = (id: string) => Promise<HostedSession | undefined>;

async function viewOf(id: string, open: Open, withinMs: number): Promise<HostedView> {
  const opened = await openWithin(open(id), withinMs);
  if (opened === 'late') return { problem: `the server is still opening it (from its file, over ${withinMs / 1000} s so far); ask again` };
  if ('error' in opened) return { problem: `the server did not open it (${opened.error.message})` };
  const { session } = opened;
  if (!session) return { problem: 'the server did not open it (it has no record of this session)' };
  const goal = session.goal?.state();
  return { info: session.info(), events: await session.readAfter(0, Number.MAX_SAFE_INTEGER), ...(goal ? { goal } : {}) };
}

/** The opening's outcome, or 'late' once `ms` have passed (the opening goes on; a later request finds it open). */
async function openWithin(opening: Promise<HostedSession | undefined>, ms: number): Promise<{ session: HostedSession | undefined } | { error: Error } | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  try {
    return await Promise.race([opening.then((session) => ({ session }), (error: unknown) => ({ error: error as Error })), late]);
  } finally {
    clearTimeout(timer);
  }
}
