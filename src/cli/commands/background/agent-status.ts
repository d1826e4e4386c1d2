import { readEventPage, type ServerEvent, type VibeClient } from '../../../client/index.js';
import type { BackgroundEntry } from './background-registry.js';
import { spentIn } from '../../../session/session-spent.js';
import type { ServerConnection } from './server-address.js';
import { sessionReport, type SessionReport } from './session-report.js';
import type { GoalView } from './bg-goal.js';
import { sessionState, type SessionState } from '../../../contracts/session-state.js';

export type AgentState = SessionState;

export interface AgentRow {
  id: string;
  name: string;
  state: AgentState;
  workspace: string;
  repo: string;
  worktree?: string;
  branch?: string;
  base?: string;
  included?: string[];
  /** Dollars so far, as `spentIn` sums them (the same figure `sessions` shows); undefined when none is known. */
  cost?: number;
  lastEvent?: { seq: number; type: string; summary?: string };
  pendingApprovals: Array<{ requestId: string; tool: string; summary: string; detail?: string; always?: string }>;
  landed?: string;
  /** Why the server could not show it (it shows as stopped). */
  problem?: string;
  /** Once its run has ended (done, failed, stopped): what it changed, ran and cost, and how to land it. */
  report?: SessionReport;
  /** Its goal, when one was set (--bg --goal): condition, status, spend, caps and what is left, the last verdict. */
  goal?: GoalView;
}

/** A background session as the server sees it now (stopped when no server is running or it was stopped). */
export async function agentRow(entry: BackgroundEntry, server: ServerConnection | undefined): Promise<AgentRow> {
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
  if (!server) return row;
  const info = await server.client.GET('/v1/sessions/{id}', { params: { path: { id: entry.id } } });
  if (!info.data) return { ...row, problem: `the server did not open it (${info.response.status}: ${info.error?.error ?? 'no reason given'})` };
  const events = await allEvents(server.client, entry.id);
  const stops = events.filter((event) => event.type === 'stop');
  const { cost } = spentIn(events as Array<Record<string, unknown>>);
  if (cost !== undefined) row.cost = cost;
  const last = events.at(-1);
  if (last) row.lastEvent = { seq: last.seq, type: last.type, ...summaryOf(last) };
  const goal = await server.client.GET('/v1/sessions/{id}/goal', { params: { path: { id: entry.id } } });
  if (goal.data) row.goal = goal.data;
  row.pendingApprovals = info.data.pendingApprovals;
  const lastStop = stops.at(-1) as { reason?: string } | undefined;
  row.state = sessionState(info.data, lastStop?.reason, last?.type);
  if (row.state !== 'working' && row.state !== 'needs you') {
    const report = sessionReport(entry, events, row.cost);
    if (report) row.report = report;
  }
  return row;
}

async function allEvents(client: VibeClient, id: string): Promise<ServerEvent[]> {
  const events: ServerEvent[] = [];
  let after = 0;
  for (;;) {
    const page = await readEventPage(client, id, after);
    events.push(...page.events);
    if (!page.more) return events;
    after = page.next;
  }
}

function summaryOf(event: ServerEvent): { summary?: string } {
  const fields = event as { text?: string; name?: string; reason?: string; error?: string };
  const text = fields.reason ?? fields.name ?? fields.error ?? fields.text;
  return typeof text === 'string' ? { summary: text.replace(/\s+/g, ' ').slice(0, 80) } : {};
}
