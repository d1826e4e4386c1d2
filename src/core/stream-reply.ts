import type { AgentEvent } from '../contracts/events.js';
import type { ModelRequest, ModelResponse, Provider } from '../contracts/provider.js';
import { requestWithRetry, type ModelStreamEvent, type RetryPolicy } from './request-with-retry.js';

export interface ReplyStream {
  provider: Provider;
  signal: AbortSignal;
  retry: RetryPolicy;
  /** Which stream events the caller passes on, and as what; undefined drops one. */
  show: (event: ModelStreamEvent) => AgentEvent | undefined;
}

/** One reply with retries, its stream events passed on as `show` says; throws what requestWithRetry throws. */
export async function* streamReply(request: ModelRequest, options: ReplyStream): AsyncGenerator<AgentEvent, ModelResponse> {
  const stream = requestWithRetry(options.provider, request, options.signal, options.retry);
  for (;;) {
    const next = await stream.next();
    if (next.done) return next.value;
    const shown = options.show(next.value);
    if (shown) yield shown;
  }
}
