import { CACHE_WRITE_MULTIPLIER, priceOf } from '../providers/pricing.js';

/**
 * What one input token costs, relative or in dollars, in each of the three ways a provider bills it.
 * The only reader of the pricing module on the context side: when its API changes, only this changes.
 */
export interface CachePrices {
  /** A token past the cached prefix, where the provider does not write a cache (OpenAI, Gemini). */
  uncached: number;
  /** A token read from the prompt cache. */
  cachedRead: number;
  /** A token past the cached prefix where the provider writes it to the cache (Anthropic: 125%). */
  write: number;
}

/** For a model without a known price: the ratios every provider with a prompt cache uses (reads at 10%). */
const DEFAULT_READ = 0.1;
const HOUR = 60 * 60_000;

/**
 * Anthropic bills writes with a surcharge (1.25× input for 5 minutes, 2× for an hour, or the
 * model's own figures); the others write for free. `ttlMs` is the cache lifetime asked for.
 */
export function cachePricesFor(model: string, provider: string, ttlMs = 5 * 60_000): CachePrices {
  const price = priceOf(model);
  const writes = /anthropic|claude/i.test(provider) || /claude/i.test(model);
  const uncached = price?.input ?? 1;
  const cachedRead = price ? price.cachedInput : uncached * DEFAULT_READ;
  if (!writes) return { uncached, cachedRead, write: uncached };
  const hour = ttlMs >= HOUR;
  const write = (hour ? price?.cacheWrite1h : price?.cacheWrite) ?? uncached * CACHE_WRITE_MULTIPLIER[hour ? '1h' : '5m'];
  return { uncached, cachedRead, write };
}

/** The cache lifetime a `--cache-ttl` setting asks for, in milliseconds (off: the default 5 minutes, for OpenAI and the others). */
export function cacheTtlMsOf(setting: '5m' | '1h' | 'off'): number {
  return setting === '1h' ? HOUR : 5 * 60_000;
}
