import { arrayAt, hit, keyFrom, requestJson } from './service-http.js';
import { SEARCH_KEY_VARIABLES, type SearchPage, type SearchRequest } from './search-request.js';

export const BRAVE_URL = 'https://api.search.brave.com/res/v1/web/search';

/** Brave Search's web API: `GET ?q=…&count=N&offset=P` (offset counts pages of `count`), key in X-Subscription-Token. */
export async function searchBrave(base: string | undefined, request: SearchRequest): Promise<SearchPage> {
  const key = keyFrom(request.env, SEARCH_KEY_VARIABLES.brave, 'Brave Search');
  const url = new URL(base ?? BRAVE_URL);
  url.search = new URLSearchParams({ q: request.query, count: String(request.count), ...(request.page > 1 ? { offset: String(request.page - 1) } : {}) }).toString();
  const body = await requestJson('Brave Search', url, { headers: { 'x-subscription-token': key }, signal: request.signal });
  return { hits: arrayAt(body, 'web', 'results').slice(0, request.count).map((result) => hit(result.title, result.url, result.description)) };
}
