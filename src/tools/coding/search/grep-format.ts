import type { FileMatches, LineRecord } from './match-collector.js';

/** Longest line text shown; a longer match line is shown around its first match. */
export const MAX_LINE_CHARS = 300;
const BEFORE_MATCH_CHARS = 60;

export interface GrepFormatOptions {
  maxResults: number;
  context: number;
  /** Output budget in characters, kept below the registry's cap so the note is never cut. */
  maxChars: number;
  /** Absent when the search stopped once more than maxResults matches were known: the rest was not counted. */
  totalMatches?: number;
  totalFiles?: number;
}

/** Code points before a UTF-16 index, plus one: the 1-based column both engines report. */
export function columnOf(text: string, index: number): number {
  let column = 1;
  for (let i = 0; i < index; i++) {
    const code = text.charCodeAt(i);
    if (code < 0xdc00 || code > 0xdfff || i === 0 || text.charCodeAt(i - 1) < 0xd800 || text.charCodeAt(i - 1) > 0xdbff) column++;
  }
  return column;
}

/** Moves an index off the second half of a surrogate pair. */
function safeIndex(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return index > 0 && index < text.length && code >= 0xdc00 && code <= 0xdfff ? index - 1 : index;
}

export function shownText(record: LineRecord): string {
  const { text } = record;
  if (text.length <= MAX_LINE_CHARS) return text;
  const start = safeIndex(text, Math.max(0, (record.matchIndex ?? 0) - BEFORE_MATCH_CHARS));
  const end = safeIndex(text, Math.min(text.length, start + MAX_LINE_CHARS));
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? `… [line of ${text.length} chars]` : ''}`;
}

function formatRecord(path: string, record: LineRecord): string {
  return record.matchIndex === undefined
    ? `${path}-${record.line}- ${shownText(record)}`
    : // A match can start after the line's text (at a "\r" that is not shown, or at its end).
      `${path}:${record.line}:${columnOf(record.text, Math.min(record.matchIndex, record.text.length))}: ${shownText(record)}`;
}

/** The records of one file that can be shown once `budget` matches are left overall. */
function visibleRecords(file: FileMatches, budget: number, context: number): LineRecord[] {
  const shownMatches = file.records.filter((r) => r.matchIndex !== undefined).slice(0, budget).map((r) => r.line);
  if (shownMatches.length === 0) return [];
  const last = shownMatches[shownMatches.length - 1]!;
  return file.records.filter((r) =>
    r.matchIndex !== undefined ? r.line <= last : shownMatches.some((line) => Math.abs(line - r.line) <= context),
  );
}

/**
 * `path:line:column: text` per matching line and `path-line- text` per context line, files in
 * path order, "--" between non-adjacent groups when context is asked for, and a closing note
 * when matches were left out (how many, when the search counted them all).
 */
export function formatGrep(files: FileMatches[], options: GrepFormatOptions): string {
  const lines: string[] = [];
  let chars = 0;
  let shown = 0;
  let cutByChars = false;
  outer: for (const file of files) {
    let previous: number | undefined;
    for (const record of visibleRecords(file, options.maxResults - shown, options.context)) {
      const text = formatRecord(file.path, record);
      const separator = options.context > 0 && lines.length > 0 && (previous === undefined || record.line > previous + 1);
      const cost = text.length + 1 + (separator ? 3 : 0);
      if (chars + cost > options.maxChars) {
        cutByChars = true;
        break outer;
      }
      if (separator) lines.push('--');
      lines.push(text);
      chars += cost;
      previous = record.line;
      if (record.matchIndex !== undefined) shown++;
    }
    if (shown >= options.maxResults) break;
  }
  const advice = `Narrow the pattern, path or glob${cutByChars ? '' : ', or raise max_results'}.`;
  if (options.totalMatches === undefined) {
    const cut = cutByChars ? '; the output limit was reached' : '';
    lines.push(`[${shown} matching lines shown; more exist (not counted: the search stops once more than max_results are found${cut}). ${advice}]`);
  } else if (options.totalMatches > shown) {
    const why = cutByChars ? 'the output limit was reached' : `max_results is ${options.maxResults}`;
    const files = `${options.totalFiles} file${options.totalFiles === 1 ? '' : 's'}`;
    lines.push(`[${shown} of ${options.totalMatches} matching lines shown (in ${files}); ${options.totalMatches - shown} more omitted because ${why}. ${advice}]`);
  }
  return lines.join('\n');
}
