import { findLineMatches, findSubstrings, lineNumbersAt, splitLines, type TextMatch } from './line-match.js';
import { matchQuoteStyle, straightenQuotes } from './quotes.js';
import { leadingWhitespace, reindentLines } from './reindent.js';

/** A difference between old_string and the file that the second pass forgives. */
export type Tolerance = 'trailing_whitespace' | 'indentation' | 'quotes' | 'line_numbers';

export interface EditRequest {
  oldString: string;
  newString: string;
  replaceAll?: boolean;
}

export type EditOutcome =
  | { ok: true; text: string; replacements: number; lines: number[]; tolerances: Tolerance[] }
  | { ok: false; kind: 'not_found' }
  | { ok: false; kind: 'ambiguous'; lines: number[]; tolerances: Tolerance[] };

interface Candidate {
  matches: TextMatch[];
  tolerances: Tolerance[];
  /** The text that replaces one match. */
  replacement(match: TextMatch): string;
}

const trimEnd = (line: string) => line.trimEnd();
const trimBoth = (line: string) => line.trim();

/**
 * Replaces old_string by new_string in `text`. Exact matches win; only when there is none does a
 * second pass forgive, in order: trailing whitespace, quote style, both, indentation (with new_string
 * re-indented), indentation and quotes. The first pass that matches decides, and says what it forgave.
 * Last, old_string copied with read_file's line-number prefixes is tried without them.
 */
export function applyEdit(text: string, request: EditRequest): EditOutcome {
  const outcome = applyWithoutPrefixes(text, request);
  const stripped = stripLineNumbers(request.oldString);
  if (outcome.ok || outcome.kind === 'ambiguous' || stripped === undefined) return outcome;
  const newString = stripLineNumbers(request.newString) ?? request.newString;
  const retry = applyWithoutPrefixes(text, { ...request, oldString: stripped, newString });
  return retry.ok || retry.kind === 'ambiguous' ? { ...retry, tolerances: ['line_numbers', ...retry.tolerances] } : outcome;
}

const LINE_NUMBER_PREFIX = /^ *\d+\t/;

/** old_string without `cat -n` prefixes, when every non-empty line has one; otherwise undefined. */
export function stripLineNumbers(text: string): string | undefined {
  const lines = text.split('\n');
  const numbered = lines.filter((line) => line !== '');
  if (numbered.length === 0 || !numbered.every((line) => LINE_NUMBER_PREFIX.test(line))) return undefined;
  return lines.map((line) => line.replace(LINE_NUMBER_PREFIX, '')).join('\n');
}

function applyWithoutPrefixes(text: string, request: EditRequest): EditOutcome {
  const { oldString, newString } = request;
  if (oldString === '') throw new Error('applyEdit needs a non-empty old_string');
  for (const candidate of candidates(text, oldString, newString)) {
    const { matches, tolerances } = candidate;
    if (matches.length === 0) continue;
    const lines = matches.map((m) => m.line);
    if (matches.length > 1 && !request.replaceAll) return { ok: false, kind: 'ambiguous', lines, tolerances };
    let result = '';
    let position = 0;
    for (const match of matches) {
      result += text.slice(position, match.start) + candidate.replacement(match);
      position = match.end;
    }
    result += text.slice(position);
    return { ok: true, text: result, replacements: matches.length, lines, tolerances };
  }
  return { ok: false, kind: 'not_found' };
}

/** Lazily, so the tolerant passes cost nothing when the exact one matches. */
function* candidates(text: string, oldString: string, newString: string): Generator<Candidate> {
  const exact = findSubstrings(text, oldString);
  yield { matches: toMatches(text, exact, oldString.length), tolerances: [], replacement: () => newString };

  const split = splitLines(text);
  const plain = (match: TextMatch) => dropFinalNewline(newString, match);
  yield { matches: findLineMatches(split, oldString, trimEnd), tolerances: ['trailing_whitespace'], replacement: plain };

  // Quote normalisation keeps lengths, so offsets found in the straightened text hold in the original.
  const straight = straightenQuotes(oldString);
  const quoted = (match: TextMatch) => matchQuoteStyle(plain(match), text.slice(match.start, match.end));
  yield { matches: toMatches(text, findSubstrings(straightenQuotes(text), straight), oldString.length), tolerances: ['quotes'], replacement: quoted };
  yield {
    matches: findLineMatches(split, straight, (line) => straightenQuotes(line).trimEnd()),
    tolerances: ['trailing_whitespace', 'quotes'],
    replacement: quoted,
  };

  const reindented = (match: TextMatch) => reindent(plain(match), oldString, match);
  yield { matches: findLineMatches(split, oldString, trimBoth), tolerances: ['indentation'], replacement: reindented };
  yield {
    matches: findLineMatches(split, straight, (line) => straightenQuotes(line).trim()),
    tolerances: ['indentation', 'quotes'],
    replacement: (match) => matchQuoteStyle(reindented(match), text.slice(match.start, match.end)),
  };
}

function toMatches(text: string, offsets: number[], length: number): TextMatch[] {
  const lines = lineNumbersAt(text, offsets);
  return offsets.map((start, i) => ({ start, end: start + length, line: lines[i] as number, fileLines: [], missingFinalNewline: false }));
}

function dropFinalNewline(replacement: string, match: TextMatch): string {
  return match.missingFinalNewline && replacement.endsWith('\n') ? replacement.slice(0, -1) : replacement;
}

/** Shifts new_string from old_string's base indentation to that of the matched file lines. */
function reindent(replacement: string, oldString: string, match: TextMatch): string {
  const oldLines = oldString.split('\n');
  const first = oldLines.findIndex((line) => line.trim() !== '');
  if (first === -1) return replacement;
  const from = leadingWhitespace(oldLines[first] as string);
  const to = leadingWhitespace(match.fileLines[first] ?? '');
  return reindentLines(replacement.split('\n'), from, to).join('\n');
}

const DESCRIPTIONS: Record<Tolerance, string> = {
  trailing_whitespace: 'trailing whitespace ignored when matching',
  indentation: 'indentation differed; new_string was re-indented to the file',
  quotes: "curly/straight quotes ignored when matching; new_string uses the file's quote style",
  line_numbers: 'line-number prefixes copied from read_file were removed',
};

export function describeTolerances(tolerances: readonly Tolerance[]): string {
  return tolerances.map((t) => DESCRIPTIONS[t]).join('; ');
}
