import { arrayAt, hit, requestJson } from './service-http.js';
import type { SearchPage, SearchRequest } from './search-request.js';

/** SearXNG's JSON API: `GET {url}/search?q=…&format=json&pageno=N`; a page is the instance's own page, of which `count` are kept. */
export async function searchSearxng(base: string, request: SearchRequest): Promise<SearchPage> {
  const url = new URL('search', base.endsWith('/') ? base : `${base}/`);
  url.search = new URLSearchParams({ q: request.query, format: 'json', pageno: String(request.page) }).toString();
  let body: unknown;
  try {
    body = await requestJson('SearXNG', url, { headers: {}, signal: request.signal });
  } catch (error) {
    if (error instanceof Error && error.message.endsWith('not JSON.')) throw new Error(`${error.message} Turn on its JSON format: search.formats: [html, json] in settings.yml.`);
    throw error;
  }
  return { hits: arrayAt(body, 'results').slice(0, request.count).map((result) => hit(result.title, result.url, result.content)) };
}
