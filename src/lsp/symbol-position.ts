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
 * Where in `text` the model means: a line and column as given; a symbol's name on the given line;
 * or, with a name alone, its first whole-word occurrence (the note says how many there are, so
 * the model can pass a line to pick another). A dotted name (`Shape.area`) is looked up by its last part.
 */
export function locateSymbol(text: string, query: PositionQuery): Located {
  const lines = text.split('\n');
  if (query.line !== undefined && query.line > lines.length) return { ok: false, error: `line ${query.line} is past the end of the file (${lines.length} lines)` };
  const name = query.symbol?.split('.').filter(Boolean).pop();
  if (query.line !== undefined) {
    const lineText = lines[query.line - 1]!;
    if (query.column !== undefined) return { ok: true, place: { line: query.line - 1, character: Math.min(query.column - 1, lineText.length) } };
    if (!name) return { ok: true, place: { line: query.line - 1, character: lineText.length - lineText.trimStart().length } };
    const at = wordIndexes(lineText, name)[0];
    if (at === undefined) return { ok: false, error: `"${name}" is not on line ${query.line}: ${lineText.trim()}` };
    return { ok: true, place: { line: query.line - 1, character: at } };
  }
  if (!name) return { ok: false, error: 'give the symbol (its name) or a line' };
  const found: Place[] = [];
  lines.forEach((lineText, line) => {
    for (const character of wordIndexes(lineText, name)) found.push({ line, character });
  });
  if (!found.length) return { ok: false, error: `"${name}" does not occur in the file as a whole word` };
  const place = found[0]!;
  return { ok: true, place, ...(found.length > 1 ? { note: `"${name}" taken at ${place.line + 1}:${place.character + 1}, the first of ${found.length} occurrences in the file; pass line to pick another` } : {}) };
}

function wordIndexes(line: string, word: string): number[] {
  const found: number[] = [];
  for (let at = line.indexOf(word); at !== -1; at = line.indexOf(word, at + 1)) {
    if (!isWordChar(line[at - 1]) && !isWordChar(line[at + word.length])) found.push(at);
  }
  return found;
}

function isWordChar(char: string | undefined): boolean {
  return char !== undefined && /[\p{L}\p{N}_$]/u.test(char);
}
