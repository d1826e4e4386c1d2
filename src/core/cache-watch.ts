import type { AgentEvent } from '../contracts/events.js';
import type { Usage } from '../contracts/messages.js';
import type { ModelRequest } from '../contracts/provider.js';
import { explainMiss, type ContextChanges, type MissKind, type MissReason } from './explain-miss.js';

/** One request's prompt tokens by how they were billed, and why the cache missed, when it did. */
export interface CacheReport {
  read: number;
  written: number;
  uncached: number;
  why?: string;
}

/** The same reason this many requests in a row is a pattern worth a warning. */
const REPEATED_MISSES = 3;
/** A prompt this long is cached by every provider (their minimums are 1,024–4,096 tokens): reading none of it next time is a miss. */
const CACHEABLE_TOKENS = 4_096;
export const DEFAULT_CACHE_TTL_MS = 5 * 60_000;

/**
 * Watches a run's requests for prompt-cache misses: each request is compared with the one before
 * (see explainMiss), and its usage split into read, written and uncached tokens. A miss the
 * request does not explain (the prefix was unchanged, yet nothing was read) is the provider's.
 */
export class CacheWatch {
  private previous: { request: ModelRequest; at: number } | undefined;
  private pending: MissReason | undefined;
  private streak: { kind: MissKind | 'provider'; count: number } | undefined;
  private warned = new Set<string>();
  private previousInput = 0;
  private caches = false;

  constructor(private readonly options: { ttlMs?: number; now?: () => number } = {}) {}

  /** Before a request is sent. */
  sending(request: ModelRequest, changes: ContextChanges): void {
    const now = (this.options.now ?? Date.now)();
    const last = this.previous;
    this.pending = last ? explainMiss(last.request, request, now - last.at, this.options.ttlMs ?? DEFAULT_CACHE_TTL_MS, changes) : undefined;
    this.previous = { request, at: now };
  }

  /** After the request's usage came back: the report, and a warning when one reason keeps missing. */
  received(usage: Usage, turn: number): { cache: CacheReport; warning?: AgentEvent } {
    const read = Math.min(usage.cachedInputTokens, usage.inputTokens);
    const written = Math.min(usage.cacheWriteTokens, usage.inputTokens - read);
    const cache: CacheReport = { read, written, uncached: usage.inputTokens - read - written };
    let reason: { kind: MissKind | 'provider'; why: string } | undefined = this.pending;
    // A server that never reported a cache read or write (a local one) has no cache to miss.
    const unexplained = !reason && this.caches && this.previousInput >= CACHEABLE_TOKENS && read === 0;
    this.previousInput = usage.inputTokens;
    if (read > 0 || written > 0) this.caches = true;
    if (unexplained) reason = { kind: 'provider', why: 'the provider read nothing from its cache though the prefix was unchanged' };
    this.pending = undefined;
    if (!reason) {
      this.streak = undefined;
      return { cache };
    }
    cache.why = reason.why;
    this.streak = this.streak?.kind === reason.kind ? { kind: reason.kind, count: this.streak.count + 1 } : { kind: reason.kind, count: 1 };
    if (this.streak.count < REPEATED_MISSES || this.warned.has(reason.kind)) return { cache };
    this.warned.add(reason.kind);
    return {
      cache,
      warning: { type: 'context_warning', turn, message: `The prompt cache missed ${this.streak.count} requests in a row, each time because: ${reason.why}. Each miss bills the whole prompt again.` },
    };
  }
}
