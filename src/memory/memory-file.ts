import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { MemoryScope } from './memory-paths.js';
import { ANYWHERE, readOwnTextIfPresent } from '../workspace/read-own-file.js';
import { MAX_MEMORY_FILE_BYTES } from './memory-sources.js';

export const MAX_FACT_LENGTH = 500;

function header(scope: MemoryScope): string {
  const where = scope === 'user' ? 'every project' : 'this project';
  return `# Vibe Agent memory (${where})\n\nFacts noted with the remember tool, loaded into each new session. Edit freely: one "- " bullet per fact.\n\n`;
}

/** A fact as one bullet line: whitespace collapsed, so a fact can never add headings or sections. */
export function normalizeFact(fact: string): string {
  return fact.replace(/\s+/g, ' ').trim();
}

export type AppendResult = { ok: true; added: boolean; fact: string } | { ok: false; reason: string };

/** Appends `- fact` to the memory file (creating it with a short header); an existing identical fact is kept once. */
export function appendFact(path: string, scope: MemoryScope, rawFact: string): AppendResult {
  const fact = normalizeFact(rawFact);
  if (fact === '') return { ok: false, reason: 'The fact is empty. Give one short sentence to remember.' };
  if (fact.length > MAX_FACT_LENGTH) return { ok: false, reason: `The fact is ${fact.length} characters; keep it under ${MAX_FACT_LENGTH} (one short sentence).` };
  const current = readOrEmpty(path);
  if (factsIn(current).includes(fact)) return { ok: true, added: false, fact };
  const base = current === '' ? header(scope) : current.endsWith('\n') ? current : `${current}\n`;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${base}- ${fact}\n`);
  return { ok: true, added: true, fact };
}

/** Removes every bullet containing `text` (case-insensitive); returns the removed facts. */
export function forgetFacts(path: string, text: string): string[] {
  const current = readOrEmpty(path);
  const needle = text.toLowerCase();
  const removed: string[] = [];
  const kept = current.split('\n').filter((line) => {
    const fact = bulletText(line);
    if (fact !== undefined && fact.toLowerCase().includes(needle)) {
      removed.push(fact);
      return false;
    }
    return true;
  });
  if (removed.length) writeFileSync(path, kept.join('\n'));
  return removed;
}

export function factsIn(text: string): string[] {
  return text.split('\n').flatMap((line) => {
    const fact = bulletText(line);
    return fact === undefined ? [] : [fact];
  });
}

function bulletText(line: string): string | undefined {
  const match = /^\s*[-*] (.*)$/.exec(line);
  return match ? match[1]!.trim() : undefined;
}

export function readOrEmpty(path: string): string {
  return readOwnTextIfPresent(path, { within: ANYWHERE, maxBytes: MAX_MEMORY_FILE_BYTES }) ?? '';
}
