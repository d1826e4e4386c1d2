/**
 * A fake of the four search services web_search speaks, on loopback, each at its own path and in
 * its own request and response shape: SearXNG (`GET /searxng/search?q&format=json&pageno`), Brave
 * (`GET /brave/res/v1/web/search?q&count&offset`, X-Subscription-Token), Tavily (`POST
 * /tavily/search`, Bearer key) and Exa (`POST /exa/search`, x-api-key). It refuses what the real
 * service refuses: a missing or wrong key is a 401 with the service's error body, a malformed body
 * or out-of-range parameter a 400 (Brave: 422), SearXNG without its JSON format a 403. Tavily and Exa
 * filter by include/exclude domains, as the real ones do.
 */
import { createServer } from 'node:http';
import { json, listenOnLoopback, readBody } from './http-replies.js';

export interface FakeResult {
  title: string;
  url: string;
  snippet: string;
}

export type SearchServiceName = 'searxng' | 'brave' | 'tavily' | 'exa';

export interface SeenSearch {
  service: SearchServiceName;
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** A POST's body, parsed when it is JSON. */
  body?: unknown;
  /** The status the fake answered. */
  status: number;
}

export interface SearchServer {
  /** The address to put in `webSearch.url` for each service. */
  url(service: SearchServiceName): string;
  requests: SeenSearch[];
  close(): Promise<void>;
}

export const SEARCH_KEYS = { brave: 'brave-key', tavily: 'tvly-test-key', exa: 'exa-test-key' } as const;

/** The instance's own page size, as a SearXNG instance has one (its engines decide it). */
const SEARXNG_PAGE = 10;

/** `results(query)` is everything the service knows for a query, best first; each service pages and filters it its own way. */
export async function startSearchServer(results: (query: string) => FakeResult[]): Promise<SearchServer> {
  const requests: SeenSearch[] = [];
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const service = url.pathname.split('/')[1] as SearchServiceName;
      const raw = req.method === 'POST' ? await readBody(req) : '';
      const seen: SeenSearch = { service, method: req.method ?? '', url: req.url ?? '', headers: req.headers, status: 0 };
      if (raw) seen.body = parsed(raw);
      requests.push(seen);
      const reply = (status: number, body: unknown) => {
        seen.status = status;
        json(res, status, body);
      };
      if (service === 'searxng' && url.pathname === '/searxng/search' && req.method === 'GET') return searxng(url, results, reply);
      if (service === 'brave' && url.pathname === '/brave/res/v1/web/search' && req.method === 'GET') return brave(url, req.headers, results, reply);
      if (service === 'tavily' && url.pathname === '/tavily/search' && req.method === 'POST') return tavily(raw, req.headers, results, reply);
      if (service === 'exa' && url.pathname === '/exa/search' && req.method === 'POST') return exa(raw, req.headers, results, reply);
      reply(404, { error: 'Not Found' });
    })();
  });
  const { origin, close } = await listenOnLoopback(server);
  const paths: Record<SearchServiceName, string> = { searxng: '/searxng', brave: '/brave/res/v1/web/search', tavily: '/tavily/search', exa: '/exa/search' };
  return { url: (service) => `${origin}${paths[service]}`, requests, close };
}

type Reply = (status: number, body: unknown) => void;
type Headers = Record<string, string | string[] | undefined>;

function parsed(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function searxng(url: URL, results: (query: string) => FakeResult[], reply: Reply): void {
  // An instance whose settings.yml leaves json out of search.formats answers 403 Forbidden.
  if (url.searchParams.get('format') !== 'json') return reply(403, { error: 'Forbidden' });
  const q = url.searchParams.get('q') ?? '';
  const page = Number(url.searchParams.get('pageno') ?? '1');
  if (!Number.isInteger(page) || page < 1) return reply(400, { error: 'Invalid pageno' });
  const all = q ? results(q) : [];
  const slice = all.slice((page - 1) * SEARXNG_PAGE, page * SEARXNG_PAGE);
  reply(200, { query: q, number_of_results: all.length, results: slice.map((r) => ({ title: r.title, url: r.url, content: r.snippet, engine: 'fake', score: 1 })), answers: [], suggestions: [], unresponsive_engines: [] });
}

function brave(url: URL, headers: Headers, results: (query: string) => FakeResult[], reply: Reply): void {
  if (headers['x-subscription-token'] !== SEARCH_KEYS.brave) {
    return reply(401, { type: 'ErrorResponse', error: { id: 'fake', status: 401, code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The provided subscription token is invalid.' }, time: 0 });
  }
  const q = url.searchParams.get('q') ?? '';
  const count = Number(url.searchParams.get('count') ?? '20');
  const offset = Number(url.searchParams.get('offset') ?? '0');
  const invalid = !q ? 'q' : !Number.isInteger(count) || count < 1 || count > 20 ? 'count' : !Number.isInteger(offset) || offset < 0 || offset > 9 ? 'offset' : undefined;
  if (invalid) return reply(422, { type: 'ErrorResponse', error: { id: 'fake', status: 422, code: 'VALIDATION', detail: 'Unable to validate request parameter(s)', meta: { errors: [{ loc: ['query', invalid] }] } }, time: 0 });
  const all = results(q);
  const slice = all.slice(offset * count, offset * count + count);
  reply(200, { type: 'search', query: { original: q, more_results_available: all.length > (offset + 1) * count }, web: { type: 'search', results: slice.map((r) => ({ title: r.title, url: r.url, description: r.snippet, type: 'search_result' })) } });
}

function tavily(raw: string, headers: Headers, results: (query: string) => FakeResult[], reply: Reply): void {
  const refuse = (status: number, error: string) => reply(status, { detail: { error } });
  if (headers.authorization !== `Bearer ${SEARCH_KEYS.tavily}`) return refuse(401, 'Unauthorized: missing or invalid API key.');
  const body = parsed(raw) as Record<string, unknown>;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return refuse(400, 'Invalid request body.');
  if (typeof body.query !== 'string' || !body.query.trim()) return refuse(400, 'Query is missing.');
  const max = body.max_results ?? 5;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 0 || max > 20) return refuse(400, 'max_results must be between 0 and 20.');
  const include = domainList(body.include_domains);
  const exclude = domainList(body.exclude_domains);
  if (include === undefined || exclude === undefined) return refuse(400, 'include_domains and exclude_domains must be lists of strings.');
  const found = filtered(results(body.query), include, exclude).slice(0, max);
  reply(200, { query: body.query, follow_up_questions: null, answer: null, images: [], results: found.map((r, i) => ({ title: r.title, url: r.url, content: r.snippet, score: 1 - i / 100, raw_content: null })), response_time: 0.01, request_id: 'fake' });
}

function exa(raw: string, headers: Headers, results: (query: string) => FakeResult[], reply: Reply): void {
  const refuse = (status: number, error: string, tag: string) => reply(status, { requestId: 'fake', error, tag });
  if (headers['x-api-key'] !== SEARCH_KEYS.exa) return refuse(401, 'Invalid or missing API key.', 'INVALID_API_KEY');
  const body = parsed(raw) as Record<string, unknown>;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return refuse(400, 'Invalid request body.', 'INVALID_REQUEST_BODY');
  if (typeof body.query !== 'string' || !body.query.trim()) return refuse(400, 'query is required.', 'INVALID_REQUEST_BODY');
  const count = body.numResults ?? 10;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 100) return refuse(400, 'numResults must be between 1 and 100.', 'INVALID_NUM_RESULTS');
  const include = domainList(body.includeDomains);
  const exclude = domainList(body.excludeDomains);
  if (include === undefined || exclude === undefined) return refuse(400, 'includeDomains and excludeDomains must be lists of strings.', 'INVALID_REQUEST_BODY');
  const contents = body.contents as { highlights?: unknown } | undefined;
  const highlights = contents !== undefined && typeof contents === 'object' && contents.highlights !== undefined && contents.highlights !== false;
  const found = filtered(results(body.query), include, exclude).slice(0, count);
  reply(200, {
    requestId: 'fake',
    resolvedSearchType: 'neural',
    results: found.map((r, i) => ({ id: r.url, url: r.url, title: r.title, publishedDate: null, author: null, ...(highlights ? { highlights: [r.snippet], highlightScores: [1 - i / 100] } : {}) })),
    costDollars: { total: 0.005 },
  });
}

function domainList(value: unknown): string[] | undefined {
  if (value === undefined) return [];
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
}

/** A domain covers itself and everything under it, as the services' include/exclude lists do. */
function filtered(all: FakeResult[], include: string[], exclude: string[]): FakeResult[] {
  const under = (url: string, domain: string) => {
    const host = new URL(url).hostname;
    return host === domain || host.endsWith(`.${domain}`);
  };
  return all.filter((r) => (!include.length || include.some((d) => under(r.url, d))) && !exclude.some((d) => under(r.url, d)));
}
