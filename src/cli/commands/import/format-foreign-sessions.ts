import { AGENT_NAMES } from '../../../session/import/import-model.js';
import type { ForeignSessionSummary } from '../../../session/import/find-foreign-sessions.js';
import { sanitizeLine } from '../../display/sanitize.js';
import { oneLine } from '../../display/summarize.js';
import { visibleValue } from '../../display/visible-text.js';

/** The foreign sessions as a table, one line each; `imported` marks those the ledger already has. */
export function formatForeignSessions(sessions: ForeignSessionSummary[], imported: ReadonlySet<string>, width = 100): string {
  const rows = sessions.map((s) => [AGENT_NAMES[s.agent], formatDate(s.updatedAt), shortId(visibleValue(s.id)), String(s.turns), formatSize(s.size), imported.has(s.path) ? 'yes' : '']);
  const head = ['AGENT', 'DATE', 'ID', 'PROMPTS', 'SIZE', 'IMPORTED'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 3 || i === 4 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ');
  const titleWidth = Math.max(20, width - widths.reduce((a, b) => a + b + 2, 0));
  return [`${line(head)}  TITLE`, ...rows.map((row, i) => `${line(row)}  ${oneLine(sanitizeLine(sessions[i]!.title, false), titleWidth)}`)].join('\n');
}

function formatDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function shortId(id: string): string {
  return id.length > 36 ? `${id.slice(0, 35)}…` : id;
}
