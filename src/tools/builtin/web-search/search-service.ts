import { SEARCH_KEY_VARIABLES } from './backends/search-request.js';

export { SEARCH_KEY_VARIABLES, type SearchHit } from './backends/search-request.js';

export type SearchServiceName = 'searxng' | 'brave' | 'tavily' | 'exa';

/**
 * The search service the user names in the config (`"webSearch"`). `url` replaces the service's
 * address (another endpoint of the same shape, a proxy, or a test server); a key is read from the
 * environment only (SEARCH_KEY_VARIABLES), never from the config.
 */
export type SearchServiceConfig =
  /** A SearXNG instance with its JSON API on (`search.formats: [json]`). */
  | { service: 'searxng'; url: string }
  | { service: 'brave' | 'tavily' | 'exa'; url?: string };

export interface WebSearchConfig {
  search: SearchServiceConfig;
  /** Searches one session may make (default 20). */
  maxSearches: number;
}

const SERVICES: readonly SearchServiceName[] = ['searxng', 'brave', 'tavily', 'exa'];
export const DEFAULT_MAX_SEARCHES = 20;

/** The config's `"webSearch"` value, checked; a message saying what is wrong otherwise. */
export function parseWebSearchConfig(value: unknown): { ok: true; config: WebSearchConfig } | { ok: false; reason: string } {
  const example = '"webSearch": { "service": "searxng", "url": "http://127.0.0.1:8888" } or { "service": "tavily" }';
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { ok: false, reason: `"webSearch" must be an object, e.g. ${example}.` };
  const { service, url, maxSearches, ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length) return { ok: false, reason: `"webSearch" has unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (known: service, url, maxSearches; keys come from the environment: ${Object.values(SEARCH_KEY_VARIABLES).join(', ')}).` };
  if (typeof service !== 'string' || !SERVICES.includes(service as SearchServiceName)) return { ok: false, reason: `"webSearch.service" must be one of ${SERVICES.join(', ')}, e.g. ${example}.` };
  if (url !== undefined && (typeof url !== 'string' || !/^https?:\/\/[^/]/.test(url))) return { ok: false, reason: `"webSearch.url" must be an http:// or https:// URL, got ${JSON.stringify(url)}.` };
  if (service === 'searxng' && url === undefined) return { ok: false, reason: `"webSearch.url" is needed for SearXNG: your instance's address, e.g. ${example}.` };
  if (maxSearches !== undefined && (typeof maxSearches !== 'number' || !Number.isInteger(maxSearches) || maxSearches < 1)) return { ok: false, reason: `"webSearch.maxSearches" must be a whole number of at least 1, got ${JSON.stringify(maxSearches)}.` };
  const search = { service, ...(url ? { url } : {}) } as SearchServiceConfig;
  return { ok: true, config: { search, maxSearches: (maxSearches as number | undefined) ?? DEFAULT_MAX_SEARCHES } };
}
