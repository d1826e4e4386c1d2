import type { Message } from '../contracts/messages.js';
import type { CachePrices } from './cache-prices.js';

/**
 * Whether to rewrite the prompt's prefix now (stub a batch of older outputs) or keep appending.
 * Carrying the outputs costs their tokens at the cached-read price on this and every later
 * request; rewriting costs one miss: everything from the first stub to the end is sent past the
 * cached prefix once (written on Anthropic, uncached elsewhere) instead of read from the cache.
 */
export interface RewriteQuestion {
  prices: CachePrices;
  /** Tokens the batch takes out of this and every later request. */
  savedTokens: number;
  /** Tokens from the first message the batch changes to the end, after stubbing. */
  rewrittenTokens: number;
  /** Requests expected after this one. */
  remainingRequests: number;
  /** The cache has expired (idle past its TTL): this request misses whatever is sent. */
  cold: boolean;
}

export interface RewriteAnswer {
  rewrite: boolean;
  carryCost: number;
  rewriteCost: number;
}

export function rewritePays(question: RewriteQuestion): RewriteAnswer {
  const { prices, savedTokens, rewrittenTokens, remainingRequests, cold } = question;
  const carryCost = savedTokens * prices.cachedRead * (remainingRequests + 1);
  const rewriteCost = cold ? 0 : rewrittenTokens * Math.max(0, prices.write - prices.cachedRead);
  return { rewrite: savedTokens > 0 && carryCost > rewriteCost, carryCost, rewriteCost };
}

/**
 * Requests still to come in the current task, estimated from the ones it has made (a task that has
 * run n rounds is, as a rule, about as far from its end as from its start): the assistant messages
 * since the newest message from the user. A pure function of the history, so a resumed session agrees.
 */
export function expectedRemainingRequests(messages: readonly Message[]): number {
  let rounds = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === 'user') break;
    if (message.role === 'assistant') rounds++;
  }
  return Math.max(1, rounds);
}
