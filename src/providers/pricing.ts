import type { Usage } from '../contracts/messages.js';
import { catalogEntry } from './shared/model-catalog.js';

/** US dollars per one million tokens. */
export interface ModelPrice {
  input: number;
  /** Input tokens served from the provider's prompt cache. */
  cachedInput: number;
  /** Includes reasoning/thinking tokens, which every vendor bills as output. */
  output: number;
  /** Prompt tokens written to the cache with a five-minute lifetime (default 1.25 × input). */
  cacheWrite?: number;
  /** Prompt tokens written to the cache with a one-hour lifetime (default 2 × input). */
  cacheWrite1h?: number;
}

/** Anthropic's surcharges on cache writes, used when a price names none. */
export const CACHE_WRITE_MULTIPLIER = { '5m': 1.25, '1h': 2 } as const;

/** A price as a config file gives it: without a cached price, cache reads cost the input price. */
export type PriceSetting = Omit<ModelPrice, 'cachedInput'> & { cachedInput?: number };

let configured: Readonly<Record<string, ModelPrice>> = {};

/**
 * Prices that beat the catalog's (the config file's `modelPrices`, or a library user's): for a
 * model the catalog lacks, or a negotiated rate. Keys match like catalog names (dated and
 * routed names find their entry; the longest key wins).
 */
export function setModelPrices(prices: Readonly<Record<string, PriceSetting>>): void {
  configured = Object.fromEntries(Object.entries(prices).map(([model, price]) => [model, { ...price, cachedInput: price.cachedInput ?? price.input }]));
}

/** The model names that have a configured price. */
export function configuredPriceNames(): string[] {
  return Object.keys(configured);
}

/**
 * The price of a model: a configured one first, then the model catalog's. "gpt-4o-2024-08-06",
 * "openai/gpt-4o", "models/gemini-2.5-pro" and "claude-sonnet-4-5-20250929" all find their
 * entry. The first call loads the catalog (see model-catalog.ts).
 */
export function priceOf(model: string): ModelPrice | undefined {
  const own = configuredPrice(model);
  if (own) return own;
  const listed = catalogEntry(model)?.price;
  if (!listed) return undefined;
  return { ...listed, cachedInput: listed.cachedInput ?? listed.input };
}

function configuredPrice(model: string): ModelPrice | undefined {
  const name = model.toLowerCase().replace(/^.*\//, '');
  let best: string | undefined;
  for (const key of Object.keys(configured)) {
    const lower = key.toLowerCase();
    const matches = name === lower || (name.startsWith(lower) && /^[-@:]/.test(name.slice(lower.length)));
    if (matches && (!best || key.length > best.length)) best = key;
  }
  return best ? configured[best] : undefined;
}

/**
 * What a usage cost in US dollars, or undefined for a model without a known price.
 * `inputTokens` is the whole prompt: its cache reads are billed at the cached price, its cache
 * writes with their surcharge (five-minute or one-hour), the rest at the input price.
 */
export function costOf(model: string, usage: Usage, price: ModelPrice | undefined = priceOf(model)): number | undefined {
  if (!price) return undefined;
  const reads = Math.min(usage.cachedInputTokens, usage.inputTokens);
  const writes = Math.min(usage.cacheWriteTokens ?? 0, usage.inputTokens - reads);
  const writes1h = Math.min(usage.cacheWrite1hTokens ?? 0, writes);
  const plain = usage.inputTokens - reads - writes;
  const perMillion =
    plain * price.input +
    reads * price.cachedInput +
    (writes - writes1h) * (price.cacheWrite ?? price.input * CACHE_WRITE_MULTIPLIER['5m']) +
    writes1h * (price.cacheWrite1h ?? price.input * CACHE_WRITE_MULTIPLIER['1h']) +
    usage.outputTokens * price.output;
  return perMillion / 1_000_000;
}

/** What a gateway said a request cost (OpenRouter reports `usage.cost`), when it said. */
export function reportedCost(usage: Usage): number | undefined {
  const reported = (usage as Usage & { cost?: unknown }).cost;
  return typeof reported === 'number' && Number.isFinite(reported) ? reported : undefined;
}

/**
 * The one price of one request, which every figure sums (the run's total and its budget, the
 * `usage` event, `/cost`, the status line, `sessions`, `agents`, the trace): the catalog's (or
 * configured) price, else what the gateway reported, else undefined.
 */
export function requestCost(model: string, usage: Usage, price: ModelPrice | undefined = priceOf(model)): number | undefined {
  return costOf(model, usage, price) ?? reportedCost(usage);
}
