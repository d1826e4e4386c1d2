import { readFileSync } from 'node:fs';
import { parseJson } from '../contracts/bounded-json.js';
import { recordProblem } from './record-shapes.js';
import type { SessionHeader } from './records.js';

/**
 * Deeper than any record the agent writes (a request's tool schemas are the deepest part, and
 * those are held to 64 levels); the readers that walk records recursively stay far from the stack's end.
 */
const MAX_RECORD_DEPTH = 256;

export interface RawRecord {
  type: string;
  [key: string]: unknown;
}

export interface ReadSession {
  header: SessionHeader | undefined;
  records: RawRecord[];
  /** Problems found and worked around (a torn last line, a corrupt line), for stderr or an event. */
  warnings: string[];
  /** Line numbers (1-based) that were skipped: corrupt lines, and an unfinished last line. */
  skippedLines: number[];
}

/**
 * Reads a session file. A record counts once its newline is on disk: an unfinished last line
 * (the process was killed while writing it) is ignored with a warning, never an error.
 */
export function readSessionFile(path: string): ReadSession {
  return parseSessionText(readFileSync(path, 'utf8'), path);
}

export function parseSessionText(text: string, name = 'session'): ReadSession {
  const warnings: string[] = [];
  const lines = text.split('\n');
  const tail = lines.pop() ?? '';
  const skippedLines: number[] = [];
  if (tail.length > 0) {
    skippedLines.push(lines.length + 1);
    warnings.push(`${name}: ignored an unfinished last line (${Buffer.byteLength(tail)} bytes; the run was probably killed while writing it).`);
  }
  const records: RawRecord[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const record = parseRecord(line);
    if (typeof record === 'object') records.push(record);
    else {
      warnings.push(`${name}: line ${index + 1} is not a valid record${record ? ` (${record})` : ''}; skipped.`);
      skippedLines.push(index + 1);
    }
  });
  const first = records[0];
  const header = first?.type === 'session' ? (first as unknown as SessionHeader) : undefined;
  if (!header && records.length) warnings.push(`${name}: the first line is not a session header.`);
  return { header, records, warnings, skippedLines: skippedLines.sort((a, b) => a - b) };
}

/** The record, or why the line is not one (every record is checked against its type's shape). */
function parseRecord(line: string): RawRecord | string {
  const parsed = parseJson(line, MAX_RECORD_DEPTH);
  if (!parsed.ok) return parsed.error.startsWith('arrays and objects are nested') ? parsed.error : '';
  const value = parsed.value;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return `${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}, not a record`;
  if (typeof (value as RawRecord).type !== 'string') return 'it has no "type"';
  return recordProblem(value as RawRecord) ?? (value as RawRecord);
}
