import type { BackgroundEntry } from './background-registry.js';
import { spentIn } from '../../../session/session-spent.js';
import type { ServerConnection } from './server-address.js';
import { sessionReport } from './session-report.js';
import { sessionState, type SessionState } from '../../../contracts/session-state.js';
import type { AgentBody } from '../../../server/agent-schemas.js';
import type { ApiEvent, SessionInfo } from '../../../server/api-schemas.js';
import type { GoalStateBody } from '../../../server/goal-schemas.js';

export type AgentState = SessionState;

/** A background session as `agents` and the live page show it (the server's GET /v1/agents). */
export type AgentRow = AgentBody;

/** What the server holds of a session: its info, every event, its goal; or why it could not open it. */
export type HostedView = { info: SessionInfo; events: readonly ApiEvent[]; goal?: GoalStateBody } | { problem: string };

/**
 * A background session's row: its state, cost, last event, approvals, goal and report from what the
 * server holds of it (stopped when no server runs or it could not open it). The one computation of
 * it: the server's GET /v1/agents runs it (served-agents.ts), and `agents` without a server too.
 */
export function agentRow(entry: BackgroundEntry, view: HostedView | undefined): AgentRow {
  const row: AgentRow = {
    id: entry.id,
    name: entry.name,
    state: 'stopped',
    workspace: entry.workspace,
    repo: entry.repo,
    ...(entry.worktree ? { worktree: entry.worktree } : {}),
    ...(entry.branch ? { branch: entry.branch } : {}),
    ...(entry.base ? { base: entry.base } : {}),
    ...(entry.included?.length ? { included: entry.included } : {}),
    ...(entry.landed ? { landed: entry.landed } : {}),
    pendingApprovals: [],
  };
  if (!view) return row;
  if ('problem' in view) return { ...row, problem: view.problem };
  const { info, events } = view;
  const { cost } = spentIn(events as unknown as Array<Record<string, unknown>>);
  if (cost !== undefined) row.cost = cost;
  const last = events.at(-1);
  if (last) row.lastEvent = { seq: last.seq, type: last.type, ...summaryOf(last) };
  if (view.goal) row.goal = view.goal;
  row.pendingApprovals = info.pendingApprovals;
  const lastStop = events.filter((event) => event.type === 'stop').at(-1) as { reason?: string } | undefined;
  row.state = sessionState(info, lastStop?.reason, last?.type);
  if (row.state !== 'working' && row.state !== 'needs you') {
    const report = sessionReport(entry, events, row.cost);
    if (report) row.report = report;
  }
  return row;
}

/**
 * How long `agents`, `logs`, `land` and `discard` wait for the server's rows. The server bounds its own
 * work on each row (served-agents.ts), so past this it is stuck or overwhelmed: said, not waited on.
 */
export const ROWS_WITHIN_MS = 60_000;

/** One background session as the running server shows it (GET /v1/agents/{id}); stopped with no server. */
export async function fetchAgentRow(entry: BackgroundEntry, server: ServerConnection | undefined, withinMs = ROWS_WITHIN_MS): Promise<AgentRow> {
  if (!server) return agentRow(entry, undefined);
  const found = await answered(server, `GET /v1/agents/${entry.id}`, withinMs, (signal) => server.client.GET('/v1/agents/{id}', { params: { path: { id: entry.id } }, signal }));
  if (found.data) return found.data;
  // The route names an unknown id with 404 too; a server that has the route lists the sessions.
  if (found.response.status === 404 && (await answered(server, 'GET /v1/agents', withinMs, (signal) => server.client.GET('/v1/agents', { signal }))).response.status === 404) throw new Error(olderServer(server));
  return agentRow(entry, { problem: `the server did not show it (${found.response.status}: ${found.error?.error ?? 'no reason given'})` });
}

/** Every background session as the running server shows it (GET /v1/agents); each stopped with no server. */
export async function fetchAgentRows(entries: readonly BackgroundEntry[], server: ServerConnection | undefined, withinMs = ROWS_WITHIN_MS): Promise<AgentRow[]> {
  if (!server) return entries.map((entry) => agentRow(entry, undefined));
  const listed = await answered(server, 'GET /v1/agents', withinMs, (signal) => server.client.GET('/v1/agents', { signal }));
  if (listed.response.status === 404) throw new Error(olderServer(server));
  if (!listed.data) throw new Error(`the session server did not list the background sessions (${listed.response.status}: ${listed.error?.error ?? 'no reason given'})`);
  return listed.data.agents;
}

/** A request to the server, failed naming what it was and which server when no answer came within `withinMs`. */
async function answered<T>(server: ServerConnection, what: string, withinMs: number, request: (signal: AbortSignal) => Promise<T>): Promise<T> {
  try {
    return await request(AbortSignal.timeout(withinMs));
  } catch (error) {
    if ((error as Error).name !== 'TimeoutError') throw error;
    throw new Error(`the session server (process ${server.pid}, ${server.url}) did not answer ${what} within ${withinMs / 1000} s: it is stuck or the machine overloaded (its log: serve/serve.log in the data folder; kill ${server.pid} stops it)`);
  }
}

/** A server started by an earlier version, which has no agents routes, still running this data folder. */
function olderServer(server: ServerConnection): string {
  return `the session server running here (process ${server.pid}, ${server.url}) is from an earlier version of vibe-agent and cannot list background sessions: stop it (kill ${server.pid}; one started by --bg also stops by itself after 300 s with nothing running) and run this again`;
}

function summaryOf(event: ApiEvent): { summary?: string } {
  const fields = event as { text?: string; name?: string; reason?: string; error?: string };
  const text = fields.reason ?? fields.name ?? fields.error ?? fields.text;
  return typeof text === 'string' ? { summary: text.replace(/\s+/g, ' ').slice(0, 80) } : {};
}
