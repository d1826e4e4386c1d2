import type { SearchHit, SearchServiceConfig } from './search-service.js';

const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

/** Asks the configured service; returns its hits, or throws an Error whose message says what went wrong. */
export async function queryService(config: SearchServiceConfig, query: string, count: number, options: { env: Record<string, string | undefined>; signal?: AbortSignal }): Promise<SearchHit[]> {
  if (config.service === 'searxng') {
    const url = new URL('search', config.url.endsWith('/') ? config.url : `${config.url}/`);
    url.search = new URLSearchParams({ q: query, format: 'json' }).toString();
    const body = await getJson(url, {}, options.signal, 'SearXNG');
    const results = Array.isArray((body as { results?: unknown }).results) ? ((body as { results: unknown[] }).results as Array<Record<string, unknown>>) : [];
    return results.slice(0, count).map((result) => hit(result.title, result.url, result.content));
  }
  const key = options.env.BRAVE_SEARCH_API_KEY;
  if (!key) throw new Error('Brave Search needs an API key in BRAVE_SEARCH_API_KEY.');
  const url = new URL(config.url ?? 'https://api.search.brave.com/res/v1/web/search');
  url.search = new URLSearchParams({ q: query, count: String(count) }).toString();
  const body = await getJson(url, { 'x-subscription-token': key, accept: 'application/json' }, options.signal, 'Brave Search');
  const results = (body as { web?: { results?: unknown } }).web?.results;
  return (Array.isArray(results) ? (results as Array<Record<string, unknown>>) : []).slice(0, count).map((result) => hit(result.title, result.url, result.description));
}

async function getJson(url: URL, headers: Record<string, string>, signal: AbortSignal | undefined, service: string): Promise<unknown> {
  const response = await fetch(url, { headers, ...(signal ? { signal } : {}) });
  const text = await response.text();
  if (text.length > MAX_RESPONSE_BYTES) throw new Error(`${service} answered with more than ${MAX_RESPONSE_BYTES} bytes.`);
  if (!response.ok) throw new Error(`${service} answered HTTP ${response.status}: ${text.slice(0, 200)}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${service} answered with something that is not JSON (for SearXNG, turn on the JSON format: search.formats: [html, json]).`);
  }
}

/** Markup stripped and whitespace folded: a snippet is plain text. */
function plain(value: unknown): string {
  return typeof value === 'string' ? value.replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim() : '';
}

function hit(title: unknown, url: unknown, snippet: unknown): SearchHit {
  return { title: plain(title), url: typeof url === 'string' ? url : '', snippet: plain(snippet) };
}
