import { readBackgroundEntries, type BackgroundEntry } from '../../../background/background-registry.js';
import type { HostedAgents } from '../../../server/session-port.js';
import type { HostedSession } from '../../../server/session-port.js';
import { agentRow, type AgentRow, type HostedView } from '../background/agent-status.js';

/**
 * The server's background sessions (GET /v1/agents): every entry of background/agents.jsonl not
 * discarded, each opened (reopened from its file after a restart, as any request naming it does)
 * and turned into its row by agentRow, the computation `vibe-agent agents` shows.
 */
export function servedAgents(env: NodeJS.ProcessEnv): HostedAgents {
  const entries = () => readBackgroundEntries(env).filter((entry) => !entry.discarded);
  return {
    list: (open) => Promise.all(entries().map((entry) => rowOf(entry, open))),
    async get(id, open) {
      const entry = entries().find((one) => one.id === id);
      return entry && rowOf(entry, open);
    },
  };
}

async function rowOf(entry: BackgroundEntry, open: (id: string) => Promise<HostedSession | undefined>): Promise<AgentRow> {
  return agentRow(entry, await viewOf(entry.id, open));
}

async function viewOf(id: string, open: (id: string) => Promise<HostedSession | undefined>): Promise<HostedView> {
  let session: HostedSession | undefined;
  try {
    session = await open(id);
  } catch (error) {
    return { problem: `the server did not open it (${(error as Error).message})` };
  }
  if (!session) return { problem: 'the server did not open it (it has no record of this session)' };
  const goal = session.goal?.state();
  return { info: session.info(), events: await session.readAfter(0, Number.MAX_SAFE_INTEGER), ...(goal ? { goal } : {}) };
}
