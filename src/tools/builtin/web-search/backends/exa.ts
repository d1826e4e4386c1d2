import { arrayAt, hit, keyFrom, requestJson } from './service-http.js';
import { SEARCH_KEY_VARIABLES, beyondLimit, pageSlice, type SearchPage, type SearchRequest } from './search-request.js';

export const EXA_URL = 'https://api.exa.ai/search';
const MAX_RESULTS = 100;
const HIGHLIGHT_CHARS = 600;

/** Exa's search API: `POST {query, numResults, includeDomains, excludeDomains, contents: {highlights}}`, key in x-api-key; no paging, so a page is a slice. */
export async function searchExa(base: string | undefined, request: SearchRequest): Promise<SearchPage> {
  const key = keyFrom(request.env, SEARCH_KEY_VARIABLES.exa, 'Exa');
  const tooFar = beyondLimit('Exa', MAX_RESULTS, request);
  if (tooFar) throw tooFar;
  const body = {
    query: request.query,
    numResults: request.page * request.count,
    contents: { highlights: { maxCharacters: HIGHLIGHT_CHARS } },
    ...(request.includeDomains.length ? { includeDomains: request.includeDomains } : {}),
    ...(request.excludeDomains.length ? { excludeDomains: request.excludeDomains } : {}),
  };
  const answer = await requestJson('Exa', new URL(base ?? EXA_URL), { method: 'POST', headers: { 'x-api-key': key }, body, signal: request.signal });
  return { hits: pageSlice(arrayAt(answer, 'results'), request).map((result) => hit(result.title, result.url, snippetOf(result))) };
}

/** Its highlights, joined; the start of its text when it has none. */
function snippetOf(result: Record<string, unknown>): string {
  const highlights = Array.isArray(result.highlights) ? result.highlights.filter((item): item is string => typeof item === 'string') : [];
  if (highlights.length) return highlights.join(' … ');
  return typeof result.text === 'string' ? result.text.slice(0, HIGHLIGHT_CHARS) : '';
}
