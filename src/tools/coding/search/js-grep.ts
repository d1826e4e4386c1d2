import { ANYWHERE, readOwnBytes } from '../../../workspace/read-own-file.js';
import { walkFiles } from './gitignore-walker.js';
import type { MatchCollector } from './match-collector.js';
import { MAX_SEARCH_FILE_BYTES, type SearchTarget } from './search-target.js';

/** A file to search: how the output names it, and where it is. */
export interface Candidate {
  path: string;
  absolute: string;
}

export interface JsGrepQuery {
  /** The JavaScript form of the translated pattern. */
  source: string;
  /** Text every matching line contains (see translatePattern). */
  required?: string;
  ignoreCase: boolean;
  context: number;
}

/**
 * The file's text, or undefined when ripgrep would skip it too: not a regular file (a FIFO named
 * as the path would block), larger than the size limit, or binary (a NUL byte anywhere; ripgrep stops at the first NUL and we drop what it found).
 */
export function readSearchable(absolute: string): string | undefined {
  let content: Buffer;
  try {
    content = readOwnBytes(absolute, { within: ANYWHERE, maxBytes: MAX_SEARCH_FILE_BYTES });
  } catch {
    return undefined;
  }
  return content.indexOf(0) === -1 ? content.toString('utf8') : undefined;
}

function stripTerminator(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

export interface CompiledQuery {
  /** Cheapest prefilter: false when the text cannot contain a match. */
  mayMatch?: (text: string) => boolean;
  /** Finds, from a position, the next line that can match (and perhaps a few that cannot). */
  anywhere: RegExp;
  line: RegExp;
  context: number;
}

export function compileQuery(query: JsGrepQuery): CompiledQuery {
  const flags = query.ignoreCase ? 'iu' : 'u';
  return { mayMatch: literalPrefilter(query), anywhere: new RegExp(query.source, `gm${flags}`), line: new RegExp(query.source, flags), context: query.context };
}

/**
 * A search for the pattern's required text that is much cheaper than the regex: a plain
 * `includes`, or for ignore_case an ASCII-only regex without the slow `iu` flags. Under Unicode
 * case folding an ASCII letter also matches K (Kelvin sign) and ſ (long s); those are added.
 */
function literalPrefilter(query: JsGrepQuery): ((text: string) => boolean) | undefined {
  const required = query.required;
  if (required === undefined || required.length < 3) return undefined;
  if (!query.ignoreCase) return (text) => text.includes(required);
  if (!/^[\x20-\x7e]+$/.test(required)) return undefined;
  const source = [...required]
    .map((c) => {
      const lower = c.toLowerCase();
      if (lower === c.toUpperCase()) return `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
      const extra = lower === 'k' ? '\\u212a' : lower === 's' ? '\\u017f' : '';
      return `[${lower}${c.toUpperCase()}${extra}]`;
    })
    .join('');
  const regex = new RegExp(source);
  return (text) => regex.test(text);
}

/** Reports the matching lines of one file (and their context) to the collector. */
export function searchText(text: string, path: string, query: CompiledQuery, collector: MatchCollector): void {
  if (query.mayMatch && !query.mayMatch(text)) return;
  const { anywhere } = query;
  const matches: Array<{ line: number; text: string; index: number }> = [];
  let position = 0;
  let lineNumber = 1;
  let countedTo = 0;
  for (;;) {
    anywhere.lastIndex = position;
    const candidate = anywhere.exec(text);
    if (!candidate) break;
    const lineStart = candidate.index === 0 ? 0 : text.lastIndexOf('\n', candidate.index - 1) + 1;
    // Past a final newline (or in an empty file) there is no line, for ripgrep as well.
    if (lineStart >= text.length) break;
    for (let i = text.indexOf('\n', countedTo); i !== -1 && i < lineStart; i = text.indexOf('\n', i + 1)) lineNumber++;
    countedTo = lineStart;
    const newline = text.indexOf('\n', candidate.index);
    const lineText = text.slice(lineStart, newline === -1 ? text.length : newline);
    const found = query.line.exec(lineText);
    if (found) matches.push({ line: lineNumber, text: stripTerminator(lineText), index: found.index });
    if (newline === -1) break;
    position = newline + 1;
  }
  if (matches.length === 0) return;
  collector.beginFile(path);
  if (query.context === 0) {
    for (const match of matches) collector.addMatch(match.line, match.text, match.index);
  } else {
    const lines = text.split('\n');
    if (text.endsWith('\n')) lines.pop();
    const byLine = new Map(matches.map((match) => [match.line, match]));
    let next = 1;
    for (const match of matches) {
      const last = Math.min(lines.length, match.line + query.context);
      for (let line = Math.max(next, match.line - query.context); line <= last; line++) {
        const hit = byLine.get(line);
        if (hit) collector.addMatch(line, hit.text, hit.index);
        else collector.addContext(line, stripTerminator(lines[line - 1]!));
      }
      next = Math.max(next, last + 1);
    }
  }
  collector.endFile();
}

/** The JavaScript engine's candidates: every file below the target that it accepts (a named file alone), unsorted. */
export async function walkCandidates(target: SearchTarget, signal: AbortSignal, onWarning?: (message: string) => void): Promise<Candidate[]> {
  const files: Candidate[] = [];
  if (target.isFile) files.push({ path: target.display(''), absolute: target.absolute });
  else
    await walkFiles(target.absolute, {
      signal,
      onFile: (fromRoot, absolute) => {
        if (target.accepts(fromRoot)) files.push({ path: target.display(fromRoot), absolute });
      },
      onWarning,
    });
  return files;
}
