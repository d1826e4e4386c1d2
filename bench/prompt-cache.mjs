/**
 * Simulates how each provider's prompt cache bills a request, from the request body the server
 * receives. Used by the test servers (test/support/*-server.ts) to report cache reads and writes
 * in each API's own usage fields, and by the bench to bill a logged session.
 *
 * The rules, as the providers documented them (checked 2026-12):
 * - Anthropic: only prefixes ending at a `cache_control` breakpoint are cached (plus the one a
 *   top-level `cache_control` puts on the last cacheable block); at most 4 breakpoints; a
 *   breakpoint also finds an entry written at any of the 20 block boundaries before it; a
 *   prefix under the model's minimum is neither written nor read; `ttl` "5m" (default) or "1h",
 *   and a 1h breakpoint may not follow a 5m one (order: tools, system, messages); never on a
 *   thinking block nor an empty text block. Writes cost 1.25× (5m) or 2× (1h) input, reads 0.1×.
 * - OpenAI: any prefix of at least 1,024 tokens shared with a recent request routed to the same
 *   machine is read, in steps of 128 tokens; routing is by `prompt_cache_key` and the prompt's
 *   first 256 tokens; entries live 5 minutes, or 24 hours with `prompt_cache_retention: "24h"`.
 * - DeepSeek: any shared prefix, in units of 64 tokens; reported as prompt_cache_hit_tokens and
 *   prompt_cache_miss_tokens.
 * - Gemini (implicit caching): any shared prefix once the prompt reaches the model's minimum
 *   (2,048 tokens for 2.5, 4,096 for 3 and later); reported as cachedContentTokenCount.
 *
 * Tokens are counted as UTF-8 bytes / 4 per block, rounded up: approximate, deterministic,
 * and additive, so a prefix's count never depends on what follows it.
 */
import { createHash } from 'node:crypto';

/** @typedef {'anthropic' | 'openai' | 'deepseek' | 'gemini'} CacheProvider */

/**
 * The neutral figures, in the shape of src/contracts/messages.ts Usage (input = all prompt tokens).
 * @typedef {{ inputTokens: number, cachedInputTokens: number, cacheWriteTokens: number, cacheWrite1hTokens: number }} CacheUsage
 */

/**
 * One request's outcome: the usage in the provider's own field names (`wire`) and neutral
 * (`usage`), or the refusal the real API would send.
 * @typedef {{ ok: true, wire: Record<string, unknown>, usage: CacheUsage } | { ok: false, status: number, type: string, message: string }} CacheOutcome
 */

export const MAX_BREAKPOINTS = 4;
export const LOOKBACK_BLOCKS = 20;
const MINUTE = 60_000;
const TTL_MS = { '5m': 5 * MINUTE, '1h': 60 * MINUTE };
export const WRITE_MULTIPLIER = { '5m': 1.25, '1h': 2 };
export const READ_MULTIPLIER = 0.1;

/** @param {unknown} value */
export function tokensOf(value) {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? null);
  return Math.ceil(Buffer.byteLength(text, 'utf8') / 4);
}

/**
 * The smallest prefix Anthropic caches for a model (shorter ones are silently not cached).
 * @param {string} model
 */
export function anthropicMinimum(model) {
  const name = model.toLowerCase();
  if (/(opus|sonnet|fable|mythos)-5/.test(name)) return 512;
  if (/haiku-4|opus-4-[56]/.test(name)) return 4096;
  if (/opus-4-7|haiku-3/.test(name)) return 2048;
  return 1024;
}

/**
 * Gemini's implicit-caching minimum, or undefined for a model without implicit caching.
 * @param {string} model
 */
export function geminiMinimum(model) {
  const version = /gemini-(\d+)(?:\.(\d+))?/.exec(model.toLowerCase());
  if (!version) return 4096;
  const major = Number(version[1]);
  const minor = Number(version[2] ?? 0);
  if (major < 2 || (major === 2 && minor < 5)) return undefined;
  return major === 2 ? 2048 : 4096;
}

/** @param {string} text */
const hash = (text) => createHash('sha256').update(text).digest('hex');

/** @param {unknown} block */
function withoutMarker(block) {
  if (!block || typeof block !== 'object' || !('cache_control' in block)) return block;
  const { cache_control: _marker, ...rest } = /** @type {Record<string, unknown>} */ (block);
  return rest;
}

/**
 * The request as Anthropic renders it for caching: tools, then system, then each message's
 * blocks, each with its path (for error messages), its tokens, the hash of the prefix it ends,
 * and its cache_control marker.
 * @param {Record<string, any>} body
 */
export function anthropicBlocks(body) {
  /** @type {Array<{ path: string, type: string, tokens: number, prefix: string, end: number, marker: any, empty: boolean }>} */
  const blocks = [];
  let running = hash(`model:${body.model}`);
  let end = 0;
  /** @param {string} path @param {any} block @param {string} scope */
  const add = (path, block, scope) => {
    const plain = withoutMarker(block);
    const tokens = tokensOf(plain);
    running = hash(running + scope + JSON.stringify(plain));
    end += tokens;
    const type = typeof block?.type === 'string' ? block.type : scope;
    const empty = type === 'text' && typeof block?.text === 'string' && !block.text.trim();
    blocks.push({ path, type, tokens, prefix: running, end, marker: block?.cache_control ?? undefined, empty });
  };
  for (const [i, tool] of listOf(body.tools).entries()) add(`tools.${i}`, tool, 'tool');
  if (typeof body.system === 'string') add('system', { type: 'text', text: body.system }, 'system');
  else for (const [i, block] of listOf(body.system).entries()) add(`system.${i}`, block, 'system');
  for (const [i, message] of listOf(body.messages).entries()) {
    const content = typeof message?.content === 'string' ? [{ type: 'text', text: message.content }] : listOf(message?.content);
    for (const [j, block] of content.entries()) add(`messages.${i}.content.${j}`, block, String(message?.role));
  }
  return blocks;
}

/** @param {unknown} value @returns {any[]} */
const listOf = (value) => (Array.isArray(value) ? value : []);

const isThinking = (/** @type {string} */ type) => type === 'thinking' || type === 'redacted_thinking';

/**
 * What the Messages API refuses about a request's cache_control markers, as its 400 messages.
 * @param {Record<string, any>} body
 * @returns {string[]}
 */
export function anthropicCacheProblems(body) {
  const problems = [];
  const blocks = anthropicBlocks(body);
  const markers = [];
  for (const block of blocks) {
    if (block.marker === undefined || block.marker === null) continue;
    if (isThinking(block.type)) {
      problems.push(`${block.path}.${block.type}.cache_control: Extra inputs are not permitted`);
      continue;
    }
    if (block.empty) problems.push(`${block.path}: cache_control cannot be set for empty text blocks`);
    markers.push({ path: block.path, ttl: block.marker.ttl ?? '5m', type: block.marker.type });
  }
  const top = body.cache_control;
  if (top !== undefined && top !== null) markers.push({ path: 'cache_control', ttl: top.ttl ?? '5m', type: top.type });
  for (const marker of markers) {
    if (marker.type !== 'ephemeral') problems.push(`${marker.path}.type: Input should be 'ephemeral'`);
    if (!(marker.ttl in TTL_MS)) problems.push(`${marker.path}.ttl: Input should be '5m' or '1h'`);
  }
  if (markers.length > MAX_BREAKPOINTS) problems.push(`A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${markers.length}.`);
  let seenShort = false;
  for (const marker of markers) {
    if (marker.ttl === '5m') seenShort = true;
    else if (marker.ttl === '1h' && seenShort) {
      problems.push(`${marker.path}: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Longer TTLs must come before shorter ones (order: tools, system, messages).`);
      break;
    }
  }
  return problems;
}

/**
 * Holds what each provider has cached, and bills requests against it. `now` is injectable so a
 * bench replaying a logged session can bill it at its recorded times.
 */
export class PromptCacheSimulator {
  /** @param {{ now?: () => number }} [options] */
  constructor(options = {}) {
    this.now = options.now ?? (() => Date.now());
    /** Anthropic entries: prefix hash -> { expires, ttl }. @type {Map<string, { expires: number, ttl: string }>} */
    this.anthropicEntries = new Map();
    /** Prefix-matching caches (OpenAI, DeepSeek, Gemini): bucket -> recent prompts. @type {Map<string, Array<{ blocks: string[], ends: number[], expires: number }>>} */
    this.prefixEntries = new Map();
  }

  /**
   * Bills one request as the provider would.
   * @param {CacheProvider} provider
   * @param {Record<string, any>} body the JSON body as sent (for Gemini, { model, contents, systemInstruction, tools, ... })
   * @returns {CacheOutcome}
   */
  bill(provider, body) {
    switch (provider) {
      case 'anthropic':
        return this.anthropic(body);
      case 'openai':
        return this.openai(body);
      case 'deepseek':
        return this.deepseek(body);
      case 'gemini':
        return this.gemini(body);
      default:
        throw new Error(`prompt-cache: unknown provider ${provider}`);
    }
  }

  /** @param {Record<string, any>} body @returns {CacheOutcome} */
  anthropic(body) {
    const problems = anthropicCacheProblems(body);
    if (problems.length) return { ok: false, status: 400, type: 'invalid_request_error', message: problems.join('; ') };
    const now = this.now();
    const blocks = anthropicBlocks(body);
    const total = blocks.length ? blocks[blocks.length - 1].end : 0;
    const minimum = anthropicMinimum(String(body.model ?? ''));
    /** @type {Array<{ index: number, ttl: string }>} */
    const breakpoints = [];
    blocks.forEach((block, index) => {
      if (block.marker) breakpoints.push({ index, ttl: block.marker.ttl ?? '5m' });
    });
    if (body.cache_control) {
      const last = lastCacheable(blocks);
      if (last >= 0 && !breakpoints.some((b) => b.index === last)) breakpoints.push({ index: last, ttl: body.cache_control.ttl ?? '5m' });
      breakpoints.sort((a, b) => a.index - b.index);
    }
    // The read: the longest live entry at a breakpoint or within the 20 boundaries before one.
    let readEnd = 0;
    let readIndex = -1;
    let readTtl = '5m';
    for (const { index, ttl } of breakpoints) {
      for (let j = index; j >= Math.max(0, index - LOOKBACK_BLOCKS); j--) {
        const entry = this.anthropicEntries.get(blocks[j].prefix);
        if (entry && entry.expires > now && blocks[j].end >= minimum) {
          if (blocks[j].end > readEnd) {
            readEnd = blocks[j].end;
            readIndex = j;
            readTtl = ttl;
          }
          break;
        }
      }
    }
    if (readIndex >= 0) {
      // A read refreshes the entry, for the longer of its lifetime and the one asked for now.
      const entry = /** @type {{ expires: number, ttl: string }} */ (this.anthropicEntries.get(blocks[readIndex].prefix));
      if (readTtl === '1h') entry.ttl = '1h';
      entry.expires = now + TTL_MS[entry.ttl];
    }
    // The writes: every breakpoint past the read whose prefix is long enough; each segment is
    // billed at the lifetime of the breakpoint that ends it.
    let written5m = 0;
    let written1h = 0;
    let from = readEnd;
    for (const { index, ttl } of breakpoints) {
      const block = blocks[index];
      if (block.end <= from || block.end < minimum) continue;
      if (ttl === '1h') written1h += block.end - from;
      else written5m += block.end - from;
      from = block.end;
      this.anthropicEntries.set(block.prefix, { expires: now + TTL_MS[ttl], ttl });
    }
    for (const { index } of breakpoints) {
      const entry = this.anthropicEntries.get(blocks[index].prefix);
      if (entry && blocks[index].end <= readEnd) entry.expires = Math.max(entry.expires, now + TTL_MS[entry.ttl]);
    }
    const written = written5m + written1h;
    return {
      ok: true,
      wire: {
        input_tokens: total - readEnd - written,
        cache_creation_input_tokens: written,
        cache_read_input_tokens: readEnd,
        cache_creation: { ephemeral_5m_input_tokens: written5m, ephemeral_1h_input_tokens: written1h },
      },
      usage: { inputTokens: total, cachedInputTokens: readEnd, cacheWriteTokens: written, cacheWrite1hTokens: written1h },
    };
  }

  /** @param {Record<string, any>} body @returns {CacheOutcome} */
  openai(body) {
    const parts = [...listOf(body.tools), ...listOf(body.messages)].map((part) => JSON.stringify(part));
    const routing = `${body.model}\n${body.prompt_cache_key ?? ''}\n${parts.join('').slice(0, 256 * 4)}`;
    const ttl = body.prompt_cache_retention === '24h' ? 24 * 60 * MINUTE : 5 * MINUTE;
    const { total, shared } = this.matchPrefix(`openai:${hash(routing)}`, parts, ttl);
    const cached = shared < 1024 ? 0 : Math.min(1024 + Math.floor((shared - 1024) / 128) * 128, total);
    return {
      ok: true,
      wire: { prompt_tokens: total, prompt_tokens_details: { cached_tokens: cached } },
      usage: { inputTokens: total, cachedInputTokens: cached, cacheWriteTokens: 0, cacheWrite1hTokens: 0 },
    };
  }

  /** @param {Record<string, any>} body @returns {CacheOutcome} */
  deepseek(body) {
    const parts = [...listOf(body.tools), ...listOf(body.messages)].map((part) => JSON.stringify(part));
    // DeepSeek keeps its cache on disk for hours; a day bounds it here.
    const { total, shared } = this.matchPrefix(`deepseek:${body.model}`, parts, 24 * 60 * MINUTE);
    const hit = Math.floor(shared / 64) * 64;
    return {
      ok: true,
      wire: { prompt_tokens: total, prompt_cache_hit_tokens: hit, prompt_cache_miss_tokens: total - hit, prompt_tokens_details: { cached_tokens: hit } },
      usage: { inputTokens: total, cachedInputTokens: hit, cacheWriteTokens: 0, cacheWrite1hTokens: 0 },
    };
  }

  /** @param {Record<string, any>} body @returns {CacheOutcome} */
  gemini(body) {
    const model = String(body.model ?? '').replace(/^models\//, '');
    const config = body.config ?? body.generationConfig ?? {};
    const system = body.systemInstruction ?? config.systemInstruction;
    const tools = body.tools ?? config.tools ?? [];
    const parts = [...(system ? [system] : []), ...listOf(tools), ...listOf(body.contents)].map((part) => JSON.stringify(part));
    const { total, shared } = this.matchPrefix(`gemini:${model}`, parts, 5 * MINUTE);
    const minimum = geminiMinimum(model);
    const cached = minimum !== undefined && total >= minimum && shared >= minimum ? shared : 0;
    return {
      ok: true,
      wire: { promptTokenCount: total, ...(cached ? { cachedContentTokenCount: cached } : {}) },
      usage: { inputTokens: total, cachedInputTokens: cached, cacheWriteTokens: 0, cacheWrite1hTokens: 0 },
    };
  }

  /**
   * The longest prefix (in tokens) this prompt shares with a live earlier prompt in its bucket;
   * then remembers this prompt. Whole parts are compared, then the first differing part's
   * common characters.
   * @param {string} bucket @param {string[]} parts @param {number} ttl
   */
  matchPrefix(bucket, parts, ttl) {
    const now = this.now();
    const live = (this.prefixEntries.get(bucket) ?? []).filter((entry) => entry.expires > now);
    const ends = [];
    let total = 0;
    for (const part of parts) ends.push((total += tokensOf(part)));
    let shared = 0;
    for (const entry of live) {
      let i = 0;
      while (i < parts.length && i < entry.blocks.length && parts[i] === entry.blocks[i]) i++;
      let tokens = i > 0 ? ends[i - 1] : 0;
      if (i < parts.length && i < entry.blocks.length) tokens += Math.floor(commonLength(parts[i], entry.blocks[i]) / 4);
      if (tokens > shared) shared = tokens;
      if (tokens > 0) entry.expires = now + ttl;
    }
    live.push({ blocks: parts, ends, expires: now + ttl });
    // Bound the memory a long bench run holds: the newest prompts are the ones a prefix can match.
    this.prefixEntries.set(bucket, live.slice(-16));
    return { total, shared: Math.min(shared, total) };
  }
}

/** @param {string} a @param {string} b */
function commonLength(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** @param {Array<{ type: string, empty: boolean }>} blocks */
function lastCacheable(blocks) {
  for (let i = blocks.length - 1; i >= 0; i--) if (!isThinking(blocks[i].type) && !blocks[i].empty) return i;
  return -1;
}

/**
 * Prices per million tokens; writes default to Anthropic's multipliers of `input`.
 * @typedef {{ input: number, cachedInput?: number, output?: number, cacheWrite5m?: number, cacheWrite1h?: number }} CachePrice
 */

/**
 * Bills a logged session: each request in order (at its recorded time, when it has one)
 * against one simulated cache. Returns each request's outcome and the totals, with the share of
 * prompt tokens read from the cache and, given a price, the dollars.
 * @param {Array<{ provider: CacheProvider, body: Record<string, any>, at?: number, outputTokens?: number }>} requests
 * @param {{ price?: CachePrice }} [options]
 */
export function billSession(requests, options = {}) {
  let clock = 0;
  const simulator = new PromptCacheSimulator({ now: () => clock });
  const totals = { requests: 0, refused: 0, inputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, cacheWrite1hTokens: 0, outputTokens: 0 };
  const outcomes = [];
  for (const request of requests) {
    clock = request.at ?? clock + 1;
    const outcome = simulator.bill(request.provider, request.body);
    outcomes.push(outcome);
    totals.requests++;
    if (!outcome.ok) {
      totals.refused++;
      continue;
    }
    totals.inputTokens += outcome.usage.inputTokens;
    totals.cachedInputTokens += outcome.usage.cachedInputTokens;
    totals.cacheWriteTokens += outcome.usage.cacheWriteTokens;
    totals.cacheWrite1hTokens += outcome.usage.cacheWrite1hTokens;
    totals.outputTokens += request.outputTokens ?? 0;
  }
  const readShare = totals.inputTokens ? totals.cachedInputTokens / totals.inputTokens : 0;
  return { outcomes, totals, readShare, dollars: options.price ? dollarsOf(totals, options.price) : undefined };
}

/**
 * @param {{ inputTokens: number, cachedInputTokens: number, cacheWriteTokens: number, cacheWrite1hTokens: number, outputTokens: number }} totals
 * @param {CachePrice} price
 */
export function dollarsOf(totals, price) {
  const writes1h = totals.cacheWrite1hTokens;
  const writes5m = totals.cacheWriteTokens - writes1h;
  const uncached = totals.inputTokens - totals.cachedInputTokens - totals.cacheWriteTokens;
  const perMillion =
    uncached * price.input +
    totals.cachedInputTokens * (price.cachedInput ?? price.input * READ_MULTIPLIER) +
    writes5m * (price.cacheWrite5m ?? price.input * WRITE_MULTIPLIER['5m']) +
    writes1h * (price.cacheWrite1h ?? price.input * WRITE_MULTIPLIER['1h']) +
    totals.outputTokens * (price.output ?? 0);
  return perMillion / 1_000_000;
}
