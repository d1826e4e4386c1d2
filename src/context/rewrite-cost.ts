import type { Message } from '../contracts/messages.js';
import type { CachePrices } from './cache-prices.js';

/**
 * Whether to rewrite the prompt's prefix now (stub a batch of older outputs) or keep appending.
 * Carrying the outputs costs their tokens at the cached-read price on every request; rewriting
 * costs one miss: everything from the first stub to the end is sent past the cached prefix once
 * (written on Anthropic, uncached elsewhere) instead of read from the cache.
 *
 * The rule is rent-or-buy: rewrite once what carrying has cost since the last rewrite point
 * reaches the price of one rewrite, and only if the saving over the requests still expected pays
 * for it too. For outputs that arrive at a steady rate this spaces rewrites at the cheapest
 * interval (carrying grows with the square of the interval, the rewrite's price does not), and
 * it is never more than twice the cost of the best spacing in hindsight.
 */
export interface RewriteQuestion {
  prices: CachePrices;
  /** Tokens the batch takes out of this and every later request. */
  savedTokens: number;
  /** Tokens from the first message the batch changes to the end, after stubbing. */
  rewrittenTokens: number;
  /** Requests expected after this one. */
  remainingRequests: number;
  /** What carrying the batch's outputs has cost on the requests since the last rewrite point (price × tokens). */
  carriedSoFar: number;
  /** The cache has expired (idle past its TTL): this request misses whatever is sent. */
  cold: boolean;
}

export interface RewriteAnswer {
  rewrite: boolean;
  /** Carrying the batch on this request. */
  carryNow: number;
  /** Carrying it on this and every request still expected. */
  carryAhead: number;
  rewriteCost: number;
}

export function rewritePays(question: RewriteQuestion): RewriteAnswer {
  const { prices, savedTokens, rewrittenTokens, remainingRequests, carriedSoFar, cold } = question;
  const carryNow = savedTokens * prices.cachedRead;
  const carryAhead = carryNow * (remainingRequests + 1);
  const rewriteCost = cold ? 0 : rewrittenTokens * Math.max(0, prices.write - prices.cachedRead);
  const rewrite = savedTokens > 0 && carriedSoFar + carryNow >= rewriteCost && carryAhead > rewriteCost;
  return { rewrite, carryNow, carryAhead, rewriteCost };
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
