import { ProviderError } from '../../contracts/provider-error.js';

/** How long a streamed reply may go without a byte from the server before it is given up (5 minutes). */
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;
/** How long the CLI waits for the first byte of a reply before it gives up (see `firstByteMs`). */
export const DEFAULT_FIRST_BYTE_TIMEOUT_MS = 60_000;
/** How long to wait for trailing frames after the finish frame. */
const FINISHED_GRACE_MS = 5_000;

/**
 * Aborts a streamed request when the server sends nothing for `ms`. The OpenAI and Anthropic
 * SDKs' time limits stop counting once the response headers arrive, so without this a stream
 * that stalls mid-reply hangs the run for ever. Call `touch()` on every frame; after the abort,
 * `expired` tells the provider's catch that it was us, not the user.
 */
export class IdleTimer {
  /** The server went quiet before the reply was whole. */
  expired = false;
  /** The server went quiet after the reply was whole, keeping the connection open: not an error. */
  closedAfterFinish = false;
  private finished = false;
  /** The first touch starts the request; every later one is a frame from the server. */
  private started = false;
  private received = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastFrame = 0;
  private deadline = 0;

  constructor(
    private readonly ms: number,
    private readonly controller: AbortController,
    /**
     * How long the server may send nothing at all after the request went out (a server that
     * accepts and never answers); once a byte came, `ms` is the limit between frames, so a slow
     * model that streams is never cut. Undefined: `ms` from the start.
     */
    private readonly firstByteMs?: number,
  ) {}

  /**
   * (Re)starts the countdown. Called on every frame, so it only notes the time: the one timer,
   * when it fires, sleeps again for what is left since the last frame (a timer per frame costs
   * more than the frame's own handling).
   */
  touch(): void {
    if (this.started) this.received = true;
    this.started = true;
    this.lastFrame = performance.now();
    const deadline = this.due();
    // A timer already set for later (the grace is shorter than the idle wait) must be brought forward.
    if (this.timer !== undefined && this.deadline <= deadline) return;
    clearTimeout(this.timer);
    this.arm(deadline);
  }

  /** When the wait since the last frame runs out (shorter once the reply is whole). */
  private due(): number {
    if (!this.received && this.firstByteMs !== undefined) return this.lastFrame + this.firstByteMs;
    return this.lastFrame + (this.finished ? Math.min(this.ms, FINISHED_GRACE_MS) : this.ms);
  }

  private arm(deadline: number): void {
    this.deadline = deadline;
    this.timer = setTimeout(() => {
      const due = this.due();
      if (performance.now() < due) return this.arm(due);
      this.timer = undefined;
      if (this.finished) this.closedAfterFinish = true;
      else this.expired = true;
      this.controller.abort(new Error('idle time-out'));
    }, Math.max(0, deadline - performance.now()));
  }

  /**
   * The finish frame arrived; only trailing frames (usage, `[DONE]`) may follow. A server that
   * then holds the connection open is closed after a short grace instead of the full wait.
   */
  finish(): void {
    this.finished = true;
    this.touch();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * The error to report. Retryable either way: before the first frame it is like a dead
   * connection; after it, a cut stream whose half-received calls must not run.
   */
  error(label: string, opened: boolean, cause?: unknown): ProviderError {
    if (!this.received && this.firstByteMs !== undefined) return this.firstByteError(label, opened, cause);
    const wait = formatWait(this.ms);
    return opened
      ? new ProviderError('stream_cut', `${label}: the stream stalled (nothing received for ${wait}); gave up waiting.`, { cause })
      : new ProviderError('network', `${label}: the server accepted the request but sent nothing for ${wait}; gave up waiting.`, { cause });
  }

  /**
   * Nothing came back at all within the first-byte limit. Not retried: the same silence again would
   * only multiply the wait, and the user is told which setting gives a slow server longer.
   */
  private firstByteError(label: string, opened: boolean, cause: unknown): ProviderError {
    const what = opened ? 'answered the request but sent no part of the reply' : 'accepted the connection but sent nothing';
    return new ProviderError(
      'network',
      `${label}: the server ${what} for ${formatWait(this.firstByteMs!)} (the first-byte limit); gave up waiting. Is the endpoint right, and is the model loaded? A server that needs longer before its first byte: VIBE_FIRST_BYTE_TIMEOUT=<seconds> or --first-byte-timeout <seconds>.`,
      { cause, retryable: false },
    );
  }
}

function formatWait(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}
