import { readFileSync } from 'node:fs';
import type { SessionHeader } from './records.js';

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
    if (record) records.push(record);
    else {
      warnings.push(`${name}: line ${index + 1} is not a valid record; skipped.`);
      skippedLines.push(index + 1);
    }
  });
  const first = records[0];
  const header = first?.type === 'session' ? (first as unknown as SessionHeader) : undefined;
  if (!header && records.length) warnings.push(`${name}: the first line is not a session header.`);
  return { header, records, warnings, skippedLines: skippedLines.sort((a, b) => a - b) };
}

function parseRecord(line: string): RawRecord | undefined {
  try {
    const value: unknown = JSON.parse(line);
    if (value && typeof value === 'object' && !Array.isArray(value) && typeof (value as RawRecord).type === 'string') return value as RawRecord;
  } catch {
    // reported by the caller
  }
  return undefined;
}
