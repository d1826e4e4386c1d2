import { arrayAt, hit, keyFrom, requestJson } from './service-http.js';
import { SEARCH_KEY_VARIABLES, beyondLimit, pageSlice, type SearchPage, type SearchRequest } from './search-request.js';

export const TAVILY_URL = 'https://api.tavily.com/search';
const MAX_RESULTS = 20;

/** Tavily's search API: `POST {query, max_results, include_domains, exclude_domains}` with a Bearer key; no paging, so a page is a slice. */
export async function searchTavily(base: string | undefined, request: SearchRequest): Promise<SearchPage> {
  const key = keyFrom(request.env, SEARCH_KEY_VARIABLES.tavily, 'Tavily');
  const tooFar = beyondLimit('Tavily', MAX_RESULTS, request);
  if (tooFar) throw tooFar;
  const body = {
    query: request.query,
    max_results: request.page * request.count,
    search_depth: 'basic',
    include_answer: false,
    include_raw_content: false,
    ...(request.includeDomains.length ? { include_domains: request.includeDomains } : {}),
    ...(request.excludeDomains.length ? { exclude_domains: request.excludeDomains } : {}),
  };
  const answer = await requestJson('Tavily', new URL(base ?? TAVILY_URL), { method: 'POST', headers: { authorization: `Bearer ${key}` }, body, signal: request.signal });
  return { hits: pageSlice(arrayAt(answer, 'results'), request).map((result) => hit(result.title, result.url, result.content)) };
}
