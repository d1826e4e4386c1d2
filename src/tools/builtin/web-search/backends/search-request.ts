/** One search hit, as every backend returns it. */
export interface SearchHit {
  title: string;
  url: string;
  snippet: string;
}

/** Where each keyed service's key is read from (the agent's environment, held secrets included). */
export const SEARCH_KEY_VARIABLES = { brave: 'BRAVE_SEARCH_API_KEY', tavily: 'TAVILY_API_KEY', exa: 'EXA_API_KEY' } as const;

/** One page of a search, as the tool asks every backend. */
export interface SearchRequest {
  query: string;
  /** Results per page. */
  count: number;
  /** 1-based. */
  page: number;
  /** Domains the permission rules limit results to (passed to a service that can filter by them). */
  includeDomains: readonly string[];
  /** Domains the permission rules deny. */
  excludeDomains: readonly string[];
  env: Record<string, string | undefined>;
  signal?: AbortSignal | undefined;
}

export interface SearchPage {
  hits: SearchHit[];
}

/** The page's slice of a service that has no paging of its own: it is asked for every result up to the page's end. */
export function pageSlice<T>(items: readonly T[], request: Pick<SearchRequest, 'count' | 'page'>): T[] {
  const start = (request.page - 1) * request.count;
  return items.slice(start, start + request.count);
}

/** For a service without paging: the error when the page lies beyond what it returns for one query. */
export function beyondLimit(service: string, limit: number, request: Pick<SearchRequest, 'count' | 'page'>): Error | undefined {
  const end = request.page * request.count;
  return end > limit ? new Error(`${service} returns at most ${limit} results for a query, and page ${request.page} of ${request.count} would end at result ${end}; ask for fewer per page or an earlier page.`) : undefined;
}
