import { ProviderError } from './provider-error.js';

/** How long a streamed reply may go without a byte from the server before it is given up (5 minutes). */
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

/**
 * Aborts a streamed request when the server sends nothing for `ms`. The OpenAI and Anthropic
 * SDKs' time limits stop counting once the response headers arrive, so without this a stream
 * that stalls mid-reply hangs the run for ever. Call `touch()` on every frame; after the abort,
 * `expired` tells the provider's catch that it was us, not the user.
 */
export class IdleTimer {
  expired = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly ms: number,
    private readonly controller: AbortController,
  ) {}

  /** (Re)starts the countdown. */
  touch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.expired = true;
      this.controller.abort(new Error('idle time-out'));
    }, this.ms);
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  /**
   * The error to report. Retryable either way: before the first frame it is like a dead
   * connection; after it, a cut stream whose half-received calls must not run.
   */
  error(label: string, opened: boolean, cause?: unknown): ProviderError {
    const wait = formatWait(this.ms);
    return opened
      ? new ProviderError('stream_cut', `${label}: the stream stalled (nothing received for ${wait}); gave up waiting.`, { cause })
      : new ProviderError('network', `${label}: the server accepted the request but sent nothing for ${wait}; gave up waiting.`, { cause });
  }
}

function formatWait(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}
