import type { AgentEvent } from '../contracts/events.js';
import { sleep } from './sleep.js';
import type { ModelRequest, ModelResponse, Provider, ProviderEvent } from '../contracts/provider.js';
import { ProviderError } from '../contracts/provider-error.js';

export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 4, baseDelayMs: 1000, maxDelayMs: 60_000 };

export type ModelStreamEvent =
  | Extract<ProviderEvent, { type: 'text_delta' | 'reasoning_delta' | 'tool_call_delta' | 'protocol_error' }>
  | Extract<AgentEvent, { type: 'retry' }>;

/**
 * Streams one reply, retrying transient failures (429, 5xx, network, a stream cut before its
 * finish frame) with exponential back-off and jitter, honouring the server's advised delay.
 * Each retry is yielded so the user sees it. Anything else is thrown as a ProviderError.
 */
export async function* requestWithRetry(
  provider: Provider,
  request: ModelRequest,
  signal: AbortSignal | undefined,
  policy: RetryPolicy = DEFAULT_RETRY,
): AsyncGenerator<ModelStreamEvent, ModelResponse> {
  for (let attempt = 0; ; attempt++) {
    try {
      for await (const event of provider.stream(request, signal)) {
        if (event.type === 'response') return event.response;
        yield event;
      }
      throw new ProviderError('stream_cut', 'The provider ended the reply without a response.');
    } catch (error) {
      if (!(error instanceof ProviderError) || !error.retryable || signal?.aborted) throw error;
      if (attempt >= policy.maxRetries) throw attempt > 0 ? annotated(error, `gave up after ${attempt} ${attempt === 1 ? 'retry' : 'retries'}`) : error;
      // A server asking for a wait longer than we would ever back off is telling us to stop.
      if (error.retryAfterMs !== undefined && error.retryAfterMs > policy.maxDelayMs) {
        throw annotated(error, `not retried: the server asked to wait ${seconds(error.retryAfterMs)}, more than the ${seconds(policy.maxDelayMs)} limit on retry waits`);
      }
      const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
      const delayMs = Math.round(error.retryAfterMs ?? backoff * (0.5 + Math.random() * 0.5));
      yield { type: 'retry', attempt: attempt + 1, delayMs, error: error.message };
      await sleep(delayMs, signal);
    }
  }
}

/** The same error with a note on why the retries ended, so the final message says it. */
function annotated(error: ProviderError, note: string): ProviderError {
  return new ProviderError(error.kind, `${error.message} (${note})`, {
    ...(error.status !== undefined ? { status: error.status } : {}),
    ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
    cause: error.cause ?? error,
  });
}

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 100) / 10} s`;
}
