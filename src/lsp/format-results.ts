import { realpathSync } from 'node:fs';
import { readOwnTextAsync } from '../workspace/read-own-file.js';
import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallHierarchyIncomingCall, CallHierarchyOutgoingCall, DocumentSymbol, Hover, Location, LocationLink, MarkedString, MarkupContent, SymbolInformation, WorkspaceSymbol } from 'vscode-languageserver-protocol';

/** At most this many places are listed; the rest are counted. */
export const MAX_PLACES = 500;
const MAX_LINE_CHARS = 200;
/** A file larger than this shows its places without their text. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

const SYMBOL_KINDS = ['', 'file', 'module', 'namespace', 'package', 'class', 'method', 'property', 'field', 'constructor', 'enum', 'interface', 'function', 'variable', 'constant', 'string', 'number', 'boolean', 'array', 'object', 'key', 'null', 'enum member', 'struct', 'event', 'operator', 'type parameter'];

/** Reads files' lines once per answer, so each place can be shown with its line's text. */
export class LineReader {
  private readonly files = new Map<string, Promise<string[] | undefined>>();

  private readonly realWorkspace: string;

  constructor(readonly workspace: string) {
    let real = workspace;
    try {
      real = realpathSync(workspace);
    } catch {
      // A workspace that is gone confines to its name: nothing resolves inside it.
    }
    this.realWorkspace = real;
  }

  /**
   * The line's text; none for a file outside the workspace (a library's), which the tools would not
   * read unasked. Read through the confined opener, as read_file would: a path inside the workspace
   * by name that a link takes outside (`vendor -> ../outside`), a secret file, a FIFO show no text.
   */
  async line(absolute: string, line: number): Promise<string> {
    if (isAbsolute(this.shown(absolute))) return '';
    let lines = this.files.get(absolute);
    if (!lines) this.files.set(absolute, (lines = readOwnTextAsync(absolute, { within: [this.realWorkspace], maxBytes: MAX_FILE_BYTES, refuseSecrets: true }).then((text) => text.split('\n'), () => undefined)));
    const text = (await lines)?.[line]?.trim() ?? '';
    return text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text;
  }

  shown(absolute: string): string {
    const rel = relative(this.workspace, absolute);
    return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? absolute : rel.split('\\').join('/');
  }

  /** `path:line:col: text`, 1-based. */
  async place(uri: string, start: { line: number; character: number }, suffix = ''): Promise<string> {
    const absolute = uriPath(uri);
    return `${this.shown(absolute)}:${start.line + 1}:${start.character + 1}: ${await this.line(absolute, start.line)}${suffix}`;
  }
}

export function uriPath(uri: string): string {
  return uri.startsWith('file:') ? fileURLToPath(uri) : uri;
}

/** Locations (definition, references, implementations) as sorted `path:line:col: text` lines. */
export async function formatLocations(reader: LineReader, found: Location | Location[] | LocationLink[] | null | undefined, what: string): Promise<string> {
  const list = found ? (Array.isArray(found) ? found : [found]) : [];
  const places = list.map((item) => ('targetUri' in item ? { uri: item.targetUri, range: item.targetSelectionRange ?? item.targetRange } : item));
  places.sort((a, b) => a.uri.localeCompare(b.uri) || a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  if (!places.length) return `No ${what} found.`;
  const lines = await Promise.all(places.slice(0, MAX_PLACES).map((place) => reader.place(place.uri, place.range.start)));
  return [`${places.length} ${what}:`, ...lines, ...more(places.length)].join('\n');
}

export function formatHover(hover: Hover | null | undefined): string {
  if (!hover) return 'No type or documentation here.';
  const parts = Array.isArray(hover.contents) ? hover.contents : [hover.contents];
  const text = parts.map((part: MarkedString | MarkupContent) => (typeof part === 'string' ? part : part.value)).join('\n\n').trim();
  return text || 'No type or documentation here.';
}

/** A file's outline: one line per symbol, indented by nesting. */
export function formatOutline(reader: LineReader, absolute: string, symbols: DocumentSymbol[] | SymbolInformation[] | null | undefined): string {
  if (!symbols?.length) return `No symbols in ${reader.shown(absolute)}.`;
  const lines: string[] = [];
  const walk = (list: DocumentSymbol[], depth: number) => {
    for (const symbol of list) {
      lines.push(`${'  '.repeat(depth)}${SYMBOL_KINDS[symbol.kind] ?? 'symbol'} ${symbol.name}${symbol.detail ? ` ${symbol.detail.split('\n')[0]}` : ''}  ${symbol.selectionRange.start.line + 1}:${symbol.selectionRange.start.character + 1}`);
      if (symbol.children) walk(symbol.children, depth + 1);
    }
  };
  if ('location' in symbols[0]!) {
    for (const symbol of symbols as SymbolInformation[]) lines.push(`${SYMBOL_KINDS[symbol.kind] ?? 'symbol'} ${symbol.name}${symbol.containerName ? ` (in ${symbol.containerName})` : ''}  ${symbol.location.range.start.line + 1}:${symbol.location.range.start.character + 1}`);
  } else walk(symbols as DocumentSymbol[], 0);
  return [`${reader.shown(absolute)} (line:col):`, ...lines.slice(0, MAX_PLACES * 2), ...more(lines.length, MAX_PLACES * 2)].join('\n');
}

export async function formatWorkspaceSymbols(reader: LineReader, symbols: (SymbolInformation | WorkspaceSymbol)[] | null | undefined, query: string): Promise<string> {
  const list = (symbols ?? []).filter((symbol) => 'range' in symbol.location);
  if (!list.length) return `No symbols match "${query}".`;
  const lines = await Promise.all(
    list.slice(0, MAX_PLACES).map((symbol) => {
      const location = symbol.location as Location;
      return reader.place(location.uri, location.range.start, `  [${SYMBOL_KINDS[symbol.kind] ?? 'symbol'} ${symbol.name}${symbol.containerName ? ` in ${symbol.containerName}` : ''}]`);
    }),
  );
  return [`${list.length} symbols match "${query}":`, ...lines, ...more(list.length)].join('\n');
}

export async function formatIncoming(reader: LineReader, calls: CallHierarchyIncomingCall[] | null | undefined, name: string): Promise<string> {
  if (!calls?.length) return `No callers of ${name} found.`;
  const lines: string[] = [];
  for (const call of calls) {
    for (const range of call.fromRanges) lines.push(await reader.place(call.from.uri, range.start, `  (in ${call.from.name})`));
  }
  return [`${lines.length} calls of ${name}:`, ...lines.slice(0, MAX_PLACES), ...more(lines.length)].join('\n');
}

export async function formatOutgoing(reader: LineReader, fromUri: string, calls: CallHierarchyOutgoingCall[] | null | undefined, name: string): Promise<string> {
  if (!calls?.length) return `${name} calls nothing found.`;
  const lines: string[] = [];
  for (const call of calls) {
    const target = `${reader.shown(uriPath(call.to.uri))}:${call.to.selectionRange.start.line + 1}:${call.to.selectionRange.start.character + 1}`;
    for (const range of call.fromRanges) lines.push(await reader.place(fromUri, range.start, `  → ${call.to.name} (${target})`));
  }
  return [`${lines.length} calls from ${name}:`, ...lines.slice(0, MAX_PLACES), ...more(lines.length)].join('\n');
}

function more(count: number, shown = MAX_PLACES): string[] {
  return count > shown ? [`[… ${count - shown} more not shown]`] : [];
}
