import { readOwnText } from '../workspace/read-own-file.js';
import { MAX_DOC_BYTES } from './knowledge-source.js';
import { htmlToText } from './extract-text.js';

const MAX_EXCERPT = 200;

/**
 * A short excerpt of a hit, read from the file at search time (the index keeps no text): the line
 * of the chunk matching the most terms, else its first line of text. Empty when the file is gone,
 * or no longer really inside one of the knowledge folders (`within`).
 */
export function excerptOf(path: string, line: number, endLine: number, terms: readonly string[], within: readonly string[]): { text: string; line: number } {
  let text: string;
  try {
    text = readOwnText(path, { within, maxBytes: MAX_DOC_BYTES });
  } catch {
    return { text: '', line };
  }
  const lines = (/\.html?$/i.test(path) ? htmlToText(text) : text).split('\n').slice(line - 1, endLine);
  const lowered = terms.map((term) => term.toLowerCase());
  // The body line matching the most terms (the heading is shown as the title already).
  const matches = lines.map((candidate) => (/^\s*#/.test(candidate) ? 0 : lowered.filter((term) => candidate.toLowerCase().includes(term)).length));
  const best = Math.max(0, ...matches);
  let index = best > 0 ? matches.indexOf(best) : lines.findIndex((candidate) => candidate.trim() !== '' && !/^\s*#/.test(candidate));
  if (index < 0) index = Math.max(0, lines.findIndex((candidate) => candidate.trim() !== ''));
  const found = (lines[index] ?? '').replace(/\s+/g, ' ').trim();
  return { text: found.length > MAX_EXCERPT ? `${found.slice(0, MAX_EXCERPT - 1)}…` : found, line: line + index };
}
