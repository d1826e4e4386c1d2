import { requireOnFirstUse } from '../../contracts/require-on-first-use.js';
import { cachedCatalogEntry, rememberCatalogEntry, type CatalogEntry, type CatalogPrice } from './price-cache.js';

export type { CatalogEntry, CatalogPrice };

/**
 * Prices and context windows from @pydantic/genai-prices (a maintained catalog, pinned in
 * package.json; docs/providers.md says why this one). Its module is ~0.5 MB of code and data,
 * so it is required at the first look-up, never at start-up, and only when the price cache
 * (price-cache.ts: its earlier answers on this machine) lacks the model.
 */

type TieredPrice = number | { base: number; tiers?: Array<{ start: number; price: number }> } | undefined;
interface CatalogModel {
  id: string;
  context_window?: number;
}
interface CatalogResult {
  model: CatalogModel;
  model_price: Record<string, TieredPrice>;
  provider: { id: string };
}
interface GenaiPrices {
  calcPrice(usage: Record<string, number>, modelId: string, options?: { providerId?: string }): CatalogResult | null;
  findProvider(options: { providerId: string }): { models: CatalogModel[] } | undefined;
}

const catalog = requireOnFirstUse<GenaiPrices>('@pydantic/genai-prices');
/** A model was looked up (from the price cache or the catalog): its window now comes from there. */
let looked = false;
let required = false;

/**
 * Providers tried, in order, when the catalog's own matching finds no provider for a bare model
 * name (it recognises "glm-4.6" only under zhipuai, for one).
 */
const PROVIDER_HINTS = ['anthropic', 'openai', 'google', 'deepseek', 'moonshotai', 'zhipuai', 'mistral', 'x-ai', 'groq'];

const entries = new Map<string, CatalogEntry | undefined>();

/** The catalog's entry for a model name ("openai/gpt-4o", "models/gemini-2.5-pro" and dated names included). */
export function catalogEntry(model: string): CatalogEntry | undefined {
  const name = model.toLowerCase().replace(/^.*\//, '');
  if (entries.has(name)) return entries.get(name);
  const cached = cachedCatalogEntry(name);
  const entry = cached !== undefined ? (cached ?? undefined) : lookUp(name);
  if (cached === undefined) rememberCatalogEntry(name, entry);
  looked = true;
  entries.set(name, entry);
  return entry;
}

/**
 * True once a model was looked up (a price, after the first reply, or a model no built-in table
 * knows): from then on the catalog's answers (cached or not) are used for every model.
 */
export function catalogLoaded(): boolean {
  return looked;
}

/** True once the catalog's module itself was required (a look-up the price cache could not answer, or a list of models). */
export function catalogRequired(): boolean {
  return required;
}

function lookUp(name: string): CatalogEntry | undefined {
  const prices = catalog();
  required = true;
  const found = safeCalc(prices, name) ?? PROVIDER_HINTS.map((providerId) => safeCalc(prices, name, providerId)).find(Boolean);
  if (!found) return undefined;
  return { id: found.model.id, provider: found.provider.id, price: priceFrom(found.model_price), contextWindow: found.model.context_window };
}

function safeCalc(prices: GenaiPrices, name: string, providerId?: string): CatalogResult | null {
  try {
    return prices.calcPrice({ input_tokens: 0, output_tokens: 0 }, name, providerId ? { providerId } : undefined);
  } catch {
    return null;
  }
}

function priceFrom(raw: Record<string, TieredPrice>): CatalogPrice | undefined {
  const input = base(raw.input_mtok);
  const output = base(raw.output_mtok);
  if (input === undefined || output === undefined) return undefined;
  const price: CatalogPrice = { input, output };
  const cachedInput = base(raw.cache_read_mtok);
  const cacheWrite = base(raw.cache_write_mtok);
  const cacheWrite1h = base(raw.cache_write_1h_mtok);
  if (cachedInput !== undefined) price.cachedInput = cachedInput;
  if (cacheWrite !== undefined) price.cacheWrite = cacheWrite;
  if (cacheWrite1h !== undefined) price.cacheWrite1h = cacheWrite1h;
  return price;
}

function base(value: TieredPrice): number | undefined {
  if (typeof value === 'number') return value;
  return value && typeof value.base === 'number' ? value.base : undefined;
}

let warming = false;

/**
 * Loads the catalog in the next turn of the event loop, once per process: called when a reply's
 * headers have arrived, so its ~150 ms of compiling overlaps the model's generating instead of
 * delaying the run's first request or its final cost.
 */
export function warmCatalog(model: string): void {
  if (warming || looked) return;
  warming = true;
  setTimeout(() => catalogEntry(model), 0).unref();
}

/** The catalog's model names for a provider ("openai", "anthropic", "google"), or undefined when it lists none. */
export function catalogModels(providerId: string): string[] | undefined {
  const prices = catalog();
  required = true;
  looked = true;
  const models = prices.findProvider({ providerId })?.models.map((model) => model.id);
  return models?.length ? models : undefined;
}
