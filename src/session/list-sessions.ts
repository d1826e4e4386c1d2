import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sessionsDir } from './paths.js';
import { readSessionFile, type RawRecord } from './read-session.js';
import { spentIn } from './session-spent.js';

export interface SessionSummary {
  id: string;
  path: string;
  createdAt: string;
  /** Last write (the file's modification time). */
  updatedAt: Date;
  /** The first run's input. */
  firstPrompt: string;
  runs: number;
  /** Completed turns over all runs. */
  turns: number;
  inputTokens: number;
  outputTokens: number;
  /** US dollars, as `spentIn` sums them; undefined when none is known. */
  cost?: number;
  /** `land`: a land's rewind point, not a conversation to continue (see SessionHeader). */
  kind?: 'land';
}

/** A session one can continue or resume: not a land's rewind point. */
export const isConversation = (session: SessionSummary): boolean => session.kind !== 'land';

/** This workspace's sessions, most recently written first. */
export function listSessions(workspace: string, env: NodeJS.ProcessEnv = process.env): SessionSummary[] {
  const dir = sessionsDir(workspace, env);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.jsonl'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names
    .map((name) => summarize(join(dir, name), name.slice(0, -'.jsonl'.length)))
    .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || b.createdAt.localeCompare(a.createdAt));
}

export type SessionLookup = { ok: true; session: SessionSummary } | { ok: false; reason: string; matches: SessionSummary[] };

/** Finds a session by id or unique id prefix. */
export function findSession(workspace: string, idOrPrefix: string, env: NodeJS.ProcessEnv = process.env): SessionLookup {
  const all = listSessions(workspace, env);
  const exact = all.find((session) => session.id === idOrPrefix);
  if (exact) return { ok: true, session: exact };
  const matches = all.filter((session) => session.id.startsWith(idOrPrefix));
  if (matches.length === 1) return { ok: true, session: matches[0]! };
  if (matches.length === 0) return { ok: false, reason: `No session in this workspace has an id starting with "${idOrPrefix}".`, matches };
  return { ok: false, reason: `"${idOrPrefix}" matches ${matches.length} sessions; give more of the id.`, matches };
}

function summarize(path: string, fallbackId: string): SessionSummary {
  const { header, records } = readSessionFile(path);
  const summary: SessionSummary = {
    id: header?.id ?? fallbackId,
    path,
    createdAt: header?.createdAt ?? '',
    updatedAt: statSync(path).mtime,
    firstPrompt: '',
    runs: 0,
    turns: 0,
    inputTokens: 0,
    outputTokens: 0,
  };
  if (header?.kind === 'land') summary.kind = 'land';
  for (const record of records) addRecord(summary, record);
  const { cost } = spentIn(records);
  if (cost !== undefined) summary.cost = cost;
  return summary;
}

function addRecord(summary: SessionSummary, record: RawRecord): void {
  if (record.type === 'run_start') {
    if (summary.runs === 0 && typeof record.input === 'string') summary.firstPrompt = record.input;
    summary.runs++;
  } else if (record.type === 'turn_end') {
    summary.turns++;
  } else if (record.type === 'usage' && record.usage && typeof record.usage === 'object') {
    const usage = record.usage as Record<string, unknown>;
    summary.inputTokens += numberOr0(usage.inputTokens);
    summary.outputTokens += numberOr0(usage.outputTokens);
  }
}

function numberOr0(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
