import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { userCacheDir } from '../../contracts/user-cache-dir.js';

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
 * The catalog's answers for the model names this machine has looked up, in the user's cache folder
 * (`model-prices.json`), so a later run prices its model from a few hundred bytes instead of
 * compiling the 0.5 MB catalog on its first tool round. The catalog stays the source of truth:
 * the file is written from its answers and names the catalog package's version, so an upgrade
 * starts afresh; a missing, unreadable, corrupt or other version's file is a miss (the catalog
 * answers), and a file that cannot be written costs nothing but the next run's look-up.
 */
interface CacheFile {
  catalog: string;
  /** By lower-case model name without "vendor/"; null: the catalog does not know the model. */
  entries: Record<string, CatalogEntry | null>;
}

const FILE_NAME = 'model-prices.json';
/** Models kept; the oldest go first (a machine uses a handful). */
const MAX_ENTRIES = 200;
/**
 * The catalog package's version, as package.json pins it (exactly). A constant, not read from its
 * package.json: resolving the package costs ~15 ms of the first tool round. test/price-cache.test.ts
 * fails when it differs from the installed one.
 */
export const CATALOG_VERSION = '0.1.8';

let read: { path: string; entries: Map<string, CatalogEntry | null> } | undefined;

/** The cached answer for a model name: an entry, null (the catalog has none), or undefined (not cached). */
export function cachedCatalogEntry(name: string): CatalogEntry | null | undefined {
  return current().entries.get(name);
}

/** Keeps the catalog's answer for a model name for later runs. */
export function rememberCatalogEntry(name: string, entry: CatalogEntry | undefined): void {
  const cache = current();
  cache.entries.set(name, entry ?? null);
  try {
    // Another process may have added models since this one read the file.
    const merged = new Map([...(readCache(cache.path) ?? []), ...cache.entries]);
    const file: CacheFile = { catalog: CATALOG_VERSION, entries: Object.fromEntries([...merged].slice(-MAX_ENTRIES)) };
    mkdirSync(dirname(cache.path), { recursive: true });
    // Written aside and renamed: a reader sees the old file or the new one, never half of one.
    const temporary = `${cache.path}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(file));
    renameSync(temporary, cache.path);
  } catch {
    // A read-only or full disk: the next run looks the model up in the catalog again.
  }
}

/** Forgets what was read, so the next look-up reads the file again (tests; a changed XDG_CACHE_HOME). */
export function resetPriceCache(): void {
  read = undefined;
}

function current(): NonNullable<typeof read> {
  const path = join(userCacheDir(), FILE_NAME);
  if (read?.path === path) return read;
  read = { path, entries: new Map(readCache(path)) };
  return read;
}

function readCache(path: string): Array<[string, CatalogEntry | null]> | undefined {
  try {
    const file = JSON.parse(readFileSync(path, 'utf8')) as Partial<CacheFile>;
    if (file.catalog !== CATALOG_VERSION || !file.entries || typeof file.entries !== 'object') return undefined;
    return Object.entries(file.entries).filter((pair): pair is [string, CatalogEntry | null] => pair[1] === null || isEntry(pair[1]));
  } catch {
    return undefined;
  }
}

function isEntry(value: unknown): value is CatalogEntry {
  const entry = value as Partial<CatalogEntry> | undefined;
  if (!entry || typeof entry !== 'object' || typeof entry.id !== 'string' || typeof entry.provider !== 'string') return false;
  if (entry.contextWindow !== undefined && typeof entry.contextWindow !== 'number') return false;
  if (entry.price === undefined) return true;
  const price = entry.price as unknown as Record<string, unknown>;
  if (!price || typeof price !== 'object' || typeof price.input !== 'number' || typeof price.output !== 'number') return false;
  return ['cachedInput', 'cacheWrite', 'cacheWrite1h'].every((key) => price[key] === undefined || typeof price[key] === 'number');
}
