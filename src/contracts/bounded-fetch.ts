import { countingStream } from './byte-budget.js';
import { sseReframe, type ReplyBudget } from './sse-reframe.js';

/** Per server-sent event, and for a whole reply (reasoning included). */
export const DEFAULT_REPLY_BUDGET: ReplyBudget = { maxEventBytes: 16 * 1024 * 1024, maxReplyBytes: 64 * 1024 * 1024 };

type Fetch = typeof globalThis.fetch;

/**
 * The fetch every peer that answers over HTTP is read through (provider SDKs, doctor's probes,
 * MCP servers over HTTP): its response bodies are counted as they arrive (a peer that sends
 * without end is cut off at the budget with a `ByteBudgetError`, not grown into gigabytes), and
 * event streams are decoded in linear time (see sseReframe).
 */
export function boundedFetch(peer: string, budget: ReplyBudget = DEFAULT_REPLY_BUDGET, inner: Fetch = (...args) => globalThis.fetch(...args)): Fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (!response.body || [101, 204, 205, 304].includes(response.status)) return response;
    const sse = /text\/event-stream/i.test(response.headers.get('content-type') ?? '');
    const body = sse ? sseReframe(response.body, peer, budget) : countingStream(response.body, peer, budget.maxBodyBytes ?? budget.maxReplyBytes, 'one reply');
    const bounded = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    Object.defineProperty(bounded, 'url', { value: response.url });
    return bounded;
  };
}
