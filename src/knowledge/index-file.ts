import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';

/** Bumped whenever the stored shape or the chunking changes: an older file is rebuilt, not read. */
export const INDEX_FORMAT = 1;

export interface StoredFile {
  size: number;
  mtimeMs: number;
  /** Ids of its chunks in the MiniSearch index. */
  ids: string[];
}

export interface StoredIndex {
  format: number;
  files: Record<string, StoredFile>;
  nextId: number;
  /** MiniSearch's own JSON (`JSON.stringify(miniSearch)`), parsed with its loadJSON. */
  index: string;
}

export type LoadedIndex = { ok: true; stored: StoredIndex } | { ok: false; reason: 'missing' | 'torn' | 'old-format' };

/** The stored index, or why there is none to use (missing, torn by a crash, another format). */
export function readIndexFile(path: string): LoadedIndex {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { ok: false, reason: 'missing' };
  }
  let stored: StoredIndex;
  try {
    stored = JSON.parse(text) as StoredIndex;
  } catch {
    return { ok: false, reason: 'torn' };
  }
  if (stored?.format !== INDEX_FORMAT) return { ok: false, reason: 'old-format' };
  if (typeof stored.index !== 'string' || typeof stored.files !== 'object' || typeof stored.nextId !== 'number') return { ok: false, reason: 'torn' };
  return { ok: true, stored };
}

/**
 * Written to a file of its own, then renamed over the old one: a reader sees the old index or the
 * new one, never half of one, and when two processes build at once the last rename wins whole.
 */
export function writeIndexFile(path: string, stored: StoredIndex): number {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  const text = JSON.stringify(stored);
  try {
    writeFileSync(temp, text);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return Buffer.byteLength(text);
}
