import type { DocumentSymbol, Location, LocationLink, SymbolInformation } from 'vscode-languageserver-protocol';
import type { LspClient } from './lsp-client.js';
import { symbolCandidates, type Located, type Place, type PositionQuery } from './symbol-position.js';

/** At most this many occurrences are put to the server one by one. */
const MAX_CHECKED = 40;

const KINDS = ['', 'file', 'module', 'namespace', 'package', 'class', 'method', 'property', 'field', 'constructor', 'enum', 'interface', 'function', 'variable', 'constant'];

/**
 * The place the model means by a name, as the server sees the file rather than as text: a
 * declaration of that name among the file's document symbols (the outermost, then the first), else
 * the first occurrence the server resolves to a definition. A word in a comment or a string is
 * neither, so `// sum of…` or `'sum'` is never taken for `sum`.
 */
export async function locateInCode(client: LspClient, uri: string, text: string, query: PositionQuery, signal: AbortSignal): Promise<Located & { name?: string }> {
  const found = symbolCandidates(text, query);
  if (!found.ok) return found;
  if ('exact' in found) return { ok: true, place: found.exact, ...(found.name ? { name: found.name } : {}) };
  const { name, candidates } = found;
  const others = candidates.length > 1 ? `; the word appears ${candidates.length} times in the file's text, pass line to pick another` : '';
  const declared = await declarations(client, uri, name, candidates, signal);
  if (declared) return { ok: true, name, place: declared.place, ...(others ? { note: `"${name}" taken at ${at(declared.place)}, where it is declared (${declared.kind})${others}` } : {}) };
  if (!client.capabilities.definitionProvider) return { ok: true, name, place: candidates[0]!, ...(others ? { note: `"${name}" taken at ${at(candidates[0]!)}${others}` } : {}) };
  let skipped = 0;
  for (const place of candidates.slice(0, MAX_CHECKED)) {
    const target = await client.request<Location | Location[] | LocationLink[] | null>('textDocument/definition', { textDocument: { uri }, position: place }, signal);
    if (Array.isArray(target) ? target.length > 0 : Boolean(target)) {
      const passed = skipped ? `, past ${skipped} the server does not resolve (in comments or strings)` : '';
      return { ok: true, name, place, ...(others || passed ? { note: `"${name}" taken at ${at(place)}${passed}${others}` } : {}) };
    }
    skipped++;
  }
  return { ok: true, name, place: candidates[0]!, note: `"${name}" taken at ${at(candidates[0]!)}, though the server resolves none of the ${Math.min(candidates.length, MAX_CHECKED)} occurrences it was asked about (comments or strings only?)` };
}

interface Declared {
  place: Place;
  kind: string;
}

/** The outermost, then first, declaration named `name` whose name starts at one of `candidates`. */
async function declarations(client: LspClient, uri: string, name: string, candidates: Place[], signal: AbortSignal): Promise<Declared | undefined> {
  if (!client.capabilities.documentSymbolProvider) return undefined;
  const symbols = await client.request<DocumentSymbol[] | SymbolInformation[] | null>('textDocument/documentSymbol', { textDocument: { uri } }, signal);
  const isCandidate = (place: Place) => candidates.some((candidate) => candidate.line === place.line && candidate.character === place.character);
  const found: (Declared & { depth: number })[] = [];
  const walk = (list: (DocumentSymbol | SymbolInformation)[], depth: number) => {
    for (const symbol of list) {
      if (symbol.name === name) {
        // A flat symbol's range is the whole declaration: its name is the first candidate within it.
        const place = 'selectionRange' in symbol ? symbol.selectionRange.start : candidates.find((candidate) => within(candidate, symbol.location.range));
        if (place && isCandidate(place)) found.push({ place, kind: KINDS[symbol.kind] ?? 'symbol', depth });
      }
      if ('children' in symbol && symbol.children) walk(symbol.children, depth + 1);
    }
  };
  walk(symbols ?? [], 0);
  found.sort((a, b) => a.depth - b.depth || a.place.line - b.place.line || a.place.character - b.place.character);
  return found[0];
}

function within(place: Place, range: { start: Place; end: Place }): boolean {
  const after = place.line > range.start.line || (place.line === range.start.line && place.character >= range.start.character);
  const before = place.line < range.end.line || (place.line === range.end.line && place.character <= range.end.character);
  return after && before;
}

function at(place: Place): string {
  return `${place.line + 1}:${place.character + 1}`;
}
