import { priceOf } from '../providers/pricing.js';

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

/** Anthropic bills a 5-minute cache write at 1.25× the input price; the others write for free. */
const ANTHROPIC_WRITE = 1.25;
/** For a model without a known price: the ratios every provider with a prompt cache uses (reads at 10%). */
const DEFAULT_READ = 0.1;

export function cachePricesFor(model: string, provider: string): CachePrices {
  const price = priceOf(model);
  const writes = /anthropic|claude/i.test(provider) || /claude/i.test(model);
  const uncached = price?.input ?? 1;
  const cachedRead = price ? price.cachedInput : DEFAULT_READ;
  return { uncached, cachedRead, write: writes ? uncached * ANTHROPIC_WRITE : uncached };
}
