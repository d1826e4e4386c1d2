/** The price cache: a later process prices its model from the catalog's earlier answer, without requiring the catalog. */
import { readFileSync, mkdtempSync, rmSync, writeFileSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Usage } from '../src/contracts/messages.js';

const root = mkdtempSync(join(tmpdir(), 'vibe-price-cache-'));
const savedCacheHome = process.env.XDG_CACHE_HOME;
let cacheHome: string;
let count = 0;
beforeEach(() => {
  cacheHome = join(root, `case-${++count}`);
  process.env.XDG_CACHE_HOME = cacheHome;
});
afterEach(() => {
  if (savedCacheHome === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = savedCacheHome;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const cacheFile = () => join(cacheHome, 'vibe-agent', 'model-prices.json');

/** A process's view: the pricing and catalog modules loaded afresh (nothing looked up yet). */
async function freshProcess() {
  vi.resetModules();
  const pricing = await import('../src/providers/pricing.js');
  const catalog = await import('../src/providers/shared/model-catalog.js');
  const cache = await import('../src/providers/shared/price-cache.js');
  return { ...pricing, ...catalog, ...cache };
}

const MODELS = ['gpt-4o-mini', 'openai/gpt-4o', 'claude-sonnet-4-5-20250929', 'claude-opus-5', 'models/gemini-2.5-pro', 'glm-4.6', 'no-such-model-anywhere'];
const usage: Usage = { inputTokens: 12_345, outputTokens: 678, reasoningTokens: 0, cachedInputTokens: 2_000, cacheWriteTokens: 3_000, cacheWrite1hTokens: 1_000 };

describe('the price cache', () => {
  it('is written at the first look-up; a later process reads it instead of the catalog, with the same prices, costs and windows', async () => {
    const first = await freshProcess();
    const fromCatalog = MODELS.map((model) => ({ price: first.priceOf(model), cost: first.costOf(model, usage), window: first.catalogEntry(model)?.contextWindow }));
    expect(first.catalogRequired()).toBe(true);
    expect(fromCatalog[0]!.price).toMatchObject({ input: expect.any(Number), output: expect.any(Number) });
    expect(fromCatalog.at(-1)!.price).toBeUndefined();
    const written = JSON.parse(readFileSync(cacheFile(), 'utf8')) as { catalog: string; entries: Record<string, unknown> };
    expect(written.catalog).toBe(first.CATALOG_VERSION);
    expect(Object.keys(written.entries)).toEqual(expect.arrayContaining(['gpt-4o-mini', 'gpt-4o', 'no-such-model-anywhere']));
    expect(written.entries['no-such-model-anywhere']).toBeNull();
    const writtenAt = statSync(cacheFile()).mtimeMs;

    const later = await freshProcess();
    const fromCache = MODELS.map((model) => ({ price: later.priceOf(model), cost: later.costOf(model, usage), window: later.catalogEntry(model)?.contextWindow }));
    expect(fromCache).toEqual(fromCatalog);
    expect(later.catalogRequired()).toBe(false);
    expect(later.catalogLoaded()).toBe(true);
    // Nothing new to keep: the file is not written again.
    expect(statSync(cacheFile()).mtimeMs).toBe(writtenAt);
  });

  it('a file from another version of the catalog is not used, and is replaced', async () => {
    mkdirSync(join(cacheHome, 'vibe-agent'), { recursive: true });
    const stale = { id: 'gpt-4o-mini', provider: 'openai', price: { input: 999, output: 999 }, contextWindow: 1 };
    writeFileSync(cacheFile(), JSON.stringify({ catalog: '0.0.0-older', entries: { 'gpt-4o-mini': stale } }));
    const run = await freshProcess();
    expect(run.priceOf('gpt-4o-mini')?.input).not.toBe(999);
    expect(run.catalogRequired()).toBe(true);
    const written = JSON.parse(readFileSync(cacheFile(), 'utf8')) as { catalog: string; entries: Record<string, { price: { input: number } }> };
    expect(written.catalog).toBe(run.CATALOG_VERSION);
    expect(written.entries['gpt-4o-mini']!.price.input).toBe(run.priceOf('gpt-4o-mini')!.input);
  });

  it('a corrupt file, or a malformed entry in it, is ignored: the catalog answers', async () => {
    mkdirSync(join(cacheHome, 'vibe-agent'), { recursive: true });
    writeFileSync(cacheFile(), '{"catalog": "0.1.8", "entries": {"gpt-4o');
    const torn = await freshProcess();
    const expected = torn.priceOf('gpt-4o-mini');
    expect(expected?.input).toBeGreaterThan(0);
    expect(torn.catalogRequired()).toBe(true);

    writeFileSync(cacheFile(), JSON.stringify({ catalog: torn.CATALOG_VERSION, entries: { 'gpt-4o-mini': { id: 'gpt-4o-mini', provider: 'openai', price: { input: 'free', output: 0 } } } }));
    const malformed = await freshProcess();
    expect(malformed.priceOf('gpt-4o-mini')).toEqual(expected);
    expect(malformed.catalogRequired()).toBe(true);
  });

  it('a cache folder that cannot be written costs nothing but the catalog look-up', async () => {
    // A file where the folder should be: mkdir fails.
    mkdirSync(cacheHome, { recursive: true });
    writeFileSync(join(cacheHome, 'vibe-agent'), 'in the way');
    const run = await freshProcess();
    expect(run.priceOf('gpt-4o-mini')?.input).toBeGreaterThan(0);
    expect(run.catalogRequired()).toBe(true);
  });

  it('is keyed by the installed catalog: CATALOG_VERSION is its package version and package.json pins exactly it', async () => {
    const { CATALOG_VERSION } = await freshProcess();
    const installed = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'node_modules', '@pydantic', 'genai-prices', 'package.json'), 'utf8')) as { version: string };
    const ours = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(CATALOG_VERSION, 'update CATALOG_VERSION in src/providers/shared/price-cache.ts').toBe(installed.version);
    expect(ours.dependencies['@pydantic/genai-prices']).toBe(CATALOG_VERSION);
  });
});
