import { requireOnFirstUse } from '../../contracts/require-on-first-use.js';

/**
 * Prices and context windows from @pydantic/genai-prices (a maintained catalog, pinned in
 * package.json; docs/providers.md says why this one). Its module is ~0.5 MB of code and data,
 * so it is required at the first look-up, never at start-up.
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
let loaded = false;

/** US dollars per million tokens, as the catalog lists them (base tier: long-context tiers are not modelled). */
export interface CatalogPrice {
  input: number;
  cachedInput?: number;
  output: number;
  /** Five-minute cache writes (Anthropic); absent where writes cost nothing extra. */
  cacheWrite?: number;
  cacheWrite1h?: number;
}

export interface CatalogEntry {
  /** The catalog's name for the model. */
  id: string;
  provider: string;
  price: CatalogPrice | undefined;
  contextWindow: number | undefined;
}

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
  const entry = lookUp(name);
  entries.set(name, entry);
  return entry;
}

/** True once the catalog was required (by a price look-up, or a model no built-in table knows). */
export function catalogLoaded(): boolean {
  return loaded;
}

function lookUp(name: string): CatalogEntry | undefined {
  const prices = catalog();
  loaded = true;
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
  if (warming || loaded) return;
  warming = true;
  setTimeout(() => catalogEntry(model), 0).unref();
}

/** The catalog's model names for a provider ("openai", "anthropic", "google"), or undefined when it lists none. */
export function catalogModels(providerId: string): string[] | undefined {
  const prices = catalog();
  loaded = true;
  const models = prices.findProvider({ providerId })?.models.map((model) => model.id);
  return models?.length ? models : undefined;
}
