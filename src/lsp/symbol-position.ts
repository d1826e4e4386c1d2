/** A place in a file: 0-based line and UTF-16 column, as LSP counts. */
export interface Place {
  line: number;
  character: number;
}

export interface PositionQuery {
  symbol?: string | undefined;
  /** 1-based. */
  line?: number | undefined;
  /** 1-based. */
  column?: number | undefined;
}

export type Located = { ok: true; place: Place; note?: string } | { ok: false; error: string };

/**
 * What the text alone says about the place the model means: a line and column as given (or a line's
 * first non-blank character, with no name), exactly; else the name's whole-word occurrences (on the
 * given line, if one is), which may lie in comments or strings: the server picks among them
 * (`locateInCode`). A dotted name (`Shape.area`) is looked up by its last part.
 */
export type Candidates = { ok: true; exact: Place; name?: string } | { ok: true; name: string; candidates: Place[] } | { ok: false; error: string };

export function symbolCandidates(text: string, query: PositionQuery): Candidates {
  const lines = text.split('\n');
  if (query.line !== undefined && query.line > lines.length) return { ok: false, error: `line ${query.line} is past the end of the file (${lines.length} lines)` };
  const name = query.symbol?.split('.').filter(Boolean).pop();
  if (query.line !== undefined) {
    const lineText = lines[query.line - 1]!;
    if (query.column !== undefined) {
      const exact = { line: query.line - 1, character: Math.min(query.column - 1, lineText.length) };
      return { ok: true, exact, ...((name ?? wordAt(lineText, exact.character)) ? { name: name ?? wordAt(lineText, exact.character)! } : {}) };
    }
    if (!name) return { ok: true, exact: { line: query.line - 1, character: lineText.length - lineText.trimStart().length } };
    const candidates = wordIndexes(lineText, name).map((character) => ({ line: query.line! - 1, character }));
    if (!candidates.length) return { ok: false, error: `"${name}" is not on line ${query.line}: ${lineText.trim()}` };
    return { ok: true, name, candidates };
  }
  if (!name) return { ok: false, error: 'give the symbol (its name) or a line' };
  const candidates: Place[] = [];
  lines.forEach((lineText, line) => {
    for (const character of wordIndexes(lineText, name)) candidates.push({ line, character });
  });
  if (!candidates.length) return { ok: false, error: `"${name}" does not occur in the file as a whole word` };
  return { ok: true, name, candidates };
}

/** The identifier-like word around `character`, if any. */
function wordAt(line: string, character: number): string | undefined {
  let start = character;
  let end = character;
  while (start > 0 && isWordChar(line[start - 1])) start--;
  while (end < line.length && isWordChar(line[end])) end++;
  return end > start ? line.slice(start, end) : undefined;
}

function wordIndexes(line: string, word: string): number[] {
  const found: number[] = [];
  for (let at = line.indexOf(word); at !== -1; at = line.indexOf(word, at + 1)) {
    if (!isWordChar(line[at - 1]) && !isWordChar(line[at + word.length])) found.push(at);
  }
  return found;
}

/** Whether `text` holds `word` as a whole word anywhere. */
export function hasWord(text: string, word: string): boolean {
  return wordIndexes(text, word).length > 0;
}

function isWordChar(char: string | undefined): boolean {
  return char !== undefined && /[\p{L}\p{N}_$]/u.test(char);
}
