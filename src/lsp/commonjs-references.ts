import { readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Location, LocationLink } from 'vscode-languageserver-protocol';
import { LspError, type LspClient } from './lsp-client.js';
import { symbolCandidates, type Place } from './symbol-position.js';

/** Requests (definitions and references) asked at most while following one name, each a quick one. */
export const MAX_FOLLOWED_REQUESTS = 200;
/** Files where CommonJS exports and requires are found; an ES module (.mjs) has neither. */
export const COMMONJS_EXTENSIONS = ['.js', '.cjs', '.jsx'];

export interface FollowQuery {
  /** The name as a word (`sum`). */
  name: string;
  /** Where the name was asked about, and the server's references from there. */
  origin: { uri: string; place: Place };
  found: readonly Location[];
  /** The workspace files that mention the name. */
  files: readonly string[];
  signal: AbortSignal;
}

export interface Followed {
  locations: Location[];
  /** Places that were not in the server's answer. */
  added: number;
  /** Whether MAX_FOLLOWED_REQUESTS was reached with occurrences left unasked. */
  capped: boolean;
}

/**
 * tsserver does not follow a CommonJS export to where it is required. The references of `function
 * sum` in a module ending `module.exports = { sum }` (or `exports.sum = sum`) stop at that line;
 * from `exports.sum = function…` they reach `const { sum } = require('./math')` but not the calls of
 * that `sum`. Compiler options do not change this: the same answers came with a jsconfig.json, and
 * with `module: commonjs, moduleResolution: node10, checkJs` sent through tsserver's
 * compilerOptionsForInferredProjects (typescript-language-server 5.3, TypeScript 5.9). The other way
 * round it does link them: asked where a required `sum` is defined, it names the export or the
 * function. So each other occurrence of the name in the files that mention it is asked for its
 * definition; one defined at a place already found is a reference too, and its own references are
 * added (as are the place asked about and its definition, which the server may leave out).
 * Repeated until nothing new is found, within MAX_FOLLOWED_REQUESTS requests. A word in a comment or
 * a string has no definition, and a same-named but unrelated symbol's definition lies elsewhere.
 */
export async function followCommonJs(client: LspClient, query: FollowQuery): Promise<Followed> {
  const found = new Map<string, Location>();
  const add = (location: Location): boolean => {
    const key = keyOf(location.uri, location.range.start);
    if (found.has(key)) return false;
    found.set(key, location);
    return true;
  };
  for (const location of query.found) add(location);
  const occurrences = await occurrencesOf(client, query);
  const byKey = new Map(occurrences.map((occurrence) => [occurrence.key, occurrence]));
  const definitions = new Map<string, string[]>();
  let added = 0;
  let asked = 0;
  let capped = false;
  const targetsOf = async (occurrence: Occurrence): Promise<string[]> => {
    let targets = definitions.get(occurrence.key);
    if (targets) return targets;
    if (asked === MAX_FOLLOWED_REQUESTS) {
      capped = true;
      return [];
    }
    asked++;
    targets = targetKeys(await ask<Location | Location[] | LocationLink[]>(client, 'textDocument/definition', occurrence.at, query.signal));
    definitions.set(occurrence.key, targets);
    return targets;
  };
  /** A place that belongs to the symbol, and its own references. */
  const include = async (occurrence: Occurrence): Promise<void> => {
    if (add(occurrence.location)) added++;
    if (asked === MAX_FOLLOWED_REQUESTS) {
      capped = true;
      return;
    }
    asked++;
    const references = await ask<Location[]>(client, 'textDocument/references', { ...occurrence.at, context: { includeDeclaration: true } }, query.signal);
    for (const location of references ?? []) if (add(location)) added++;
  };
  // The place asked about is the symbol, and so is its definition: from `math.sum` the server's
  // references may hold neither (only `exports.sum`).
  const origin = byKey.get(keyOf(query.origin.uri, query.origin.place));
  if (origin) {
    if (add(origin.location)) added++;
    for (const target of await targetsOf(origin)) {
      const declared = byKey.get(target);
      if (declared && !found.has(target)) await include(declared);
    }
  }
  for (let grew = true; grew; ) {
    grew = false;
    for (const occurrence of occurrences) {
      if (found.has(occurrence.key)) continue;
      if (!(await targetsOf(occurrence)).some((target) => found.has(target))) continue;
      await include(occurrence);
      grew = true;
    }
  }
  return { locations: [...found.values()], added, capped };
}

interface Occurrence {
  key: string;
  at: { textDocument: { uri: string }; position: Place };
  location: Location;
}

/** The name's whole-word occurrences in the files, each file shown to the server (opened if it was not). */
async function occurrencesOf(client: LspClient, query: FollowQuery): Promise<Occurrence[]> {
  const occurrences: Occurrence[] = [];
  for (const file of query.files) {
    if (query.signal.aborted) throw new LspError('the question was stopped with the call', 'aborted');
    const text = await readFile(file, 'utf8').catch(() => undefined);
    const found = text === undefined ? undefined : symbolCandidates(text, { symbol: query.name });
    if (!found?.ok || !('candidates' in found)) continue;
    if (!(await client.sync(file).then(() => true, () => false))) continue;
    const uri = pathToFileURL(file).href;
    for (const place of found.candidates) {
      occurrences.push({
        key: keyOf(uri, place),
        at: { textDocument: { uri }, position: place },
        location: { uri, range: { start: place, end: { line: place.line, character: place.character + query.name.length } } },
      });
    }
  }
  return occurrences;
}

/** A request whose refusal by the server counts as no answer; a stop or a time-out ends the question. */
async function ask<R>(client: LspClient, method: string, params: unknown, signal: AbortSignal): Promise<R | null> {
  try {
    return await client.request<R | null>(method, params, signal);
  } catch (error) {
    if (error instanceof LspError && error.kind === 'error') return null;
    throw error;
  }
}

function targetKeys(answer: Location | Location[] | LocationLink[] | null): string[] {
  const list: (Location | LocationLink)[] = Array.isArray(answer) ? answer : answer ? [answer] : [];
  return list.map((target) => ('targetUri' in target ? keyOf(target.targetUri, (target.targetSelectionRange ?? target.targetRange).start) : keyOf(target.uri, target.range.start)));
}

/** One place, whatever way its file URI is spelled. */
function keyOf(uri: string, place: Place): string {
  let path = uri;
  try {
    path = fileURLToPath(uri);
  } catch {
    // Not a file URI: compared as given.
  }
  return `${path}#${place.line}:${place.character}`;
}
