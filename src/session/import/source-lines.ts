import { openSync, readFileSync, closeSync, constants } from 'node:fs';
import { createHash } from 'node:crypto';
import { parseJson } from '../../contracts/bounded-json.js';

export interface SourceLine {
  /** 1-based line number. */
  line: number;
  value: Record<string, unknown>;
}

export interface SourceText {
  text: string;
  /** sha256 of the bytes, hex: what the import ledger knows the file by. */
  digest: string;
  size: number;
}

/** Reads a foreign session file without ever opening it for writing (O_RDONLY, no atime games, no lock). */
export function readSource(path: string): SourceText {
  const fd = openSync(path, constants.O_RDONLY);
  try {
    const bytes = readFileSync(fd);
    return { text: bytes.toString('utf8'), digest: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
  } finally {
    closeSync(fd);
  }
}

/**
 * The JSON objects of a JSON Lines text, each with its line number. A line that is not a JSON
 * object (a torn last write, a corrupt line, a bare value) is counted in `broken`, never fatal.
 */
export function jsonLines(text: string): { lines: SourceLine[]; broken: number; total: number } {
  const lines: SourceLine[] = [];
  let broken = 0;
  let total = 0;
  let start = 0;
  let number = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    number++;
    const raw = text.slice(start, end).trim();
    start = end + 1;
    if (raw === '') continue;
    total++;
    const parsed = parseJson(raw, 512);
    if (parsed.ok && parsed.value && typeof parsed.value === 'object' && !Array.isArray(parsed.value)) lines.push({ line: number, value: parsed.value as Record<string, unknown> });
    else broken++;
  }
  return { lines, broken, total };
}

export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
export const obj = (value: unknown): Record<string, unknown> | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);
export const arr = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
