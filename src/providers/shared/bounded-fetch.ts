import { ByteBudgetError, countingStream } from '../../contracts/byte-budget.js';
import { ProviderError } from '../../contracts/provider-error.js';
import { DEFAULT_REPLY_BUDGET, sseReframe, type ReplyBudget } from './sse-reframe.js';

type Fetch = typeof globalThis.fetch;

/**
 * The fetch every provider SDK is given: its response bodies are counted as they arrive (a peer
 * that sends without end is cut off at the budget with a clear error, not grown into gigabytes),
 * and event streams are decoded in linear time (see sseReframe).
 */
export function boundedFetch(peer: string, budget: ReplyBudget = DEFAULT_REPLY_BUDGET, inner: Fetch = (...args) => globalThis.fetch(...args)): Fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (!response.body || [101, 204, 205, 304].includes(response.status)) return response;
    const sse = /text\/event-stream/i.test(response.headers.get('content-type') ?? '');
    const body = response.body.pipeThrough(sse ? sseReframe(peer, budget) : countingStream(peer, budget.maxReplyBytes, 'one reply'));
    const bounded = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    Object.defineProperty(bounded, 'url', { value: response.url });
    return bounded;
  };
}

/** The budget's error as the one error a provider throws: not retried (the same request would send as much again). */
export function budgetProviderError(error: unknown): ProviderError | undefined {
  const budget = error instanceof ByteBudgetError ? error : error instanceof Error && error.cause instanceof ByteBudgetError ? error.cause : undefined;
  if (!budget) return undefined;
  return new ProviderError('server', budget.message, { cause: budget, retryable: false });
}
