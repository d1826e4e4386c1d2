import { IdleTimer } from './idle-timer.js';
import { ProviderError, withoutKey } from '../../contracts/provider-error.js';
import { withKeyHint } from './error-body.js';
import { budgetProviderError } from './bounded-fetch.js';

/**
 * One model request's lifetime, the same for every adapter: its own abort signal (the SDKs
 * leave a listener on the signal they are given, and a run's signal lives for hundreds of
 * requests), forwarded from the run's; an idle timer for streams; and the one error a failure
 * becomes. Call `close()` in a `finally`.
 */
export class RequestScope {
  private readonly controller = new AbortController();
  readonly idle: IdleTimer | undefined;
  private readonly forward = () => this.controller.abort(this.outer?.reason);

  constructor(
    private readonly outer: AbortSignal | undefined,
    /** Undefined for a request that is not streamed (the SDK's own time limit covers it). */
    idleTimeoutMs: number | undefined,
    /** How long the server may send nothing at all before its first byte (IdleTimer's `firstByteMs`). */
    firstByteTimeoutMs?: number,
  ) {
    if (outer?.aborted) this.forward();
    outer?.addEventListener('abort', this.forward, { once: true });
    this.idle = idleTimeoutMs === undefined ? undefined : new IdleTimer(idleTimeoutMs, this.controller, firstByteTimeoutMs);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** What a failure is: our idle time-out, the user's abort, or the provider's error with the key cut out. */
  failure(error: unknown, context: { label: string; opened: boolean; apiKey: string; keyVariable: string; toProviderError: (error: unknown) => ProviderError }): ProviderError {
    const tooMuch = budgetProviderError(error);
    if (tooMuch) return withoutKey(tooMuch, context.apiKey);
    if (this.idle?.expired && !this.outer?.aborted) return this.idle.error(context.label, context.opened, error);
    if (this.controller.signal.aborted) return new ProviderError('aborted', 'Request aborted.', { cause: error });
    return withoutKey(withKeyHint(context.toProviderError(error), context.keyVariable), context.apiKey);
  }

  /** Stops the timer and the forwarding; `abortConnection` also drops a connection left open. */
  close(abortConnection = false): void {
    this.idle?.stop();
    this.outer?.removeEventListener('abort', this.forward);
    if (abortConnection) this.controller.abort();
  }
}
