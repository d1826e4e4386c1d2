import type { SessionSummary } from '../../../session/list-sessions.js';
import { sanitizeLine } from '../../display/sanitize.js';
import { oneLine } from '../../display/summarize.js';
import { formatCost } from '../../display/format-cost.js';

/** A table of sessions for the terminal, one line each, newest first as given. */
export function formatSessionTable(sessions: SessionSummary[], width = 100): string {
  const rows = sessions.map((s) => [
    formatDate(s.updatedAt),
    s.id,
    String(s.turns),
    formatTokens(s.inputTokens + s.outputTokens),
    s.cost === undefined ? '-' : formatCost(s.cost),
  ]);
  const head = ['DATE', 'ID', 'TURNS', 'TOKENS', 'COST'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i >= 2 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ');
  const used = widths.reduce((a, b) => a + b + 2, 0);
  const promptWidth = Math.max(20, width - used);
  return [
    `${line(head)}  FIRST PROMPT`,
    ...rows.map((row, i) => `${line(row)}  ${oneLine(sanitizeLine(sessions[i]!.firstPrompt, false), promptWidth)}`),
  ].join('\n');
}

function formatDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}
