import type { Citation } from '../../contracts/messages.js';

/**
 * A provider's own server-side web search (Anthropic's web search tool, OpenAI's `web_search` on
 * the Responses wire, Gemini's Google Search grounding), as the user enabled it with
 * `"webSearch": { "service": "provider" }`.
 */
export interface ServerSearchOptions {
  /** Searches one reply may make, where the API takes such a cap (Anthropic's `max_uses`). */
  maxUses: number;
  /** Searches the session may make; once they are made the server tool is no longer offered. */
  maxSearches: number;
  /** Only these domains (Anthropic; OpenAI's `filters.allowed_domains`). */
  allowedDomains?: string[];
  /** Never these domains (Anthropic only). */
  blockedDomains?: string[];
}

/**
 * The session's searches so far. The server tool stays in every request (the tools list is part
 * of the cached prefix) until the cap is reached; the request after that one is the only one
 * whose tools change.
 */
export class SearchAllowance {
  private used = 0;
  constructor(readonly options: ServerSearchOptions) {}

  get open(): boolean {
    return this.used < this.options.maxSearches;
  }

  get searches(): number {
    return this.used;
  }

  record(count: number): void {
    this.used += count;
  }
}

/** Citations in first-cited order, each URL once (its first title and quote kept). */
export function uniqueCitations(citations: Iterable<Citation>): Citation[] {
  const byUrl = new Map<string, Citation>();
  for (const citation of citations) if (citation.url && !byUrl.has(citation.url)) byUrl.set(citation.url, citation);
  return [...byUrl.values()];
}

const DEFAULT_MAX_USES = 5;
const FIELDS = ['service', 'maxSearches', 'maxUses', 'allowedDomains', 'blockedDomains'];

/** `"webSearch": { "service": "provider", … }` checked; a message saying what is wrong otherwise. */
export function parseServerSearchConfig(value: Record<string, unknown>, defaultMaxSearches: number): { ok: true; options: ServerSearchOptions } | { ok: false; reason: string } {
  const unknown = Object.keys(value).filter((key) => !FIELDS.includes(key));
  if (unknown.length) return { ok: false, reason: `"webSearch" with service "provider" has unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (known: ${FIELDS.join(', ')}).` };
  const count = (key: string, fallback: number): number | string => {
    const raw = value[key];
    if (raw === undefined) return fallback;
    return typeof raw === 'number' && Number.isInteger(raw) && raw >= 1 ? raw : `"webSearch.${key}" must be a whole number of at least 1, got ${JSON.stringify(raw)}.`;
  };
  const domains = (key: string): string[] | string | undefined => {
    const raw = value[key];
    if (raw === undefined) return undefined;
    return Array.isArray(raw) && raw.every((d) => typeof d === 'string' && /^[a-z0-9.-]+(\/\S*)?$/i.test(d)) ? (raw as string[]) : `"webSearch.${key}" must be a list of domains such as ["docs.python.org"], got ${JSON.stringify(raw)}.`;
  };
  const maxSearches = count('maxSearches', defaultMaxSearches);
  const maxUses = count('maxUses', DEFAULT_MAX_USES);
  const allowed = domains('allowedDomains');
  const blocked = domains('blockedDomains');
  for (const problem of [maxSearches, maxUses, allowed, blocked]) if (typeof problem === 'string') return { ok: false, reason: problem };
  if (allowed && blocked) return { ok: false, reason: '"webSearch.allowedDomains" and "webSearch.blockedDomains" cannot both be set (the providers take one or the other).' };
  return { ok: true, options: { maxSearches: maxSearches as number, maxUses: maxUses as number, ...(allowed ? { allowedDomains: allowed as string[] } : {}), ...(blocked ? { blockedDomains: blocked as string[] } : {}) } };
}
