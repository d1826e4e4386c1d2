/** A region of the file text that an old_string matched: [start, end) in characters. */
export interface TextMatch {
  start: number;
  end: number;
  /** 1-based line of `start`. */
  line: number;
  /** The file's lines covered by the match (without newlines), for re-indenting. */
  fileLines: string[];
  /** old_string ended with a newline but the file's last line has none: drop it from the replacement too. */
  missingFinalNewline: boolean;
}

export interface SplitText {
  lines: string[];
  /** Character offset where each line starts. */
  starts: number[];
}

export function splitLines(text: string): SplitText {
  const lines = text.split('\n');
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length + 1;
  }
  return { lines, starts };
}

/** old_string as lines, and whether it ended with a newline (which then belongs to the match). */
export function splitNeedle(needle: string): { lines: string[]; trailingNewline: boolean } {
  const trailingNewline = needle.endsWith('\n');
  const lines = (trailingNewline ? needle.slice(0, -1) : needle).split('\n');
  return { lines, trailingNewline };
}

/**
 * Finds whole-line windows of `text` whose lines equal `needle`'s lines once both pass through
 * `normalize`. Matches do not overlap; they come in file order.
 */
export function findLineMatches(split: SplitText, needle: string, normalize: (line: string) => string): TextMatch[] {
  const { lines: wanted, trailingNewline } = splitNeedle(needle);
  const target = wanted.map(normalize);
  // A needle of blank lines would match every blank stretch of the file: never useful.
  if (target.every((line) => line === '')) return [];
  const normalized = split.lines.map(normalize);
  const k = target.length;
  const matches: TextMatch[] = [];
  for (let s = 0; s + k <= normalized.length; s++) {
    let equal = true;
    for (let i = 0; i < k && equal; i++) equal = normalized[s + i] === target[i];
    if (!equal) continue;
    const last = s + k - 1;
    const start = split.starts[s] as number;
    let end = (split.starts[last] as number) + (split.lines[last] as string).length;
    const hasNewline = last < split.lines.length - 1;
    if (trailingNewline && hasNewline) end += 1;
    matches.push({
      start,
      end,
      line: s + 1,
      fileLines: split.lines.slice(s, s + k),
      missingFinalNewline: trailingNewline && !hasNewline,
    });
    s += k - 1;
  }
  return matches;
}

/** Every non-overlapping occurrence of `needle` in `haystack` (both already normalised the same way). */
export function findSubstrings(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) found.push(i);
  return found;
}

/** 1-based line numbers of ascending character offsets, in one pass. */
export function lineNumbersAt(text: string, offsets: readonly number[]): number[] {
  const result: number[] = [];
  let line = 1;
  let position = 0;
  for (const offset of offsets) {
    for (let i = text.indexOf('\n', position); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
      line++;
      position = i + 1;
    }
    result.push(line);
  }
  return result;
}
