import type { ProbeBounds } from './types.js';

export interface Deadline {
  /** Aborts on the caller's signal (Ctrl-C) or when the time is up. */
  signal: AbortSignal;
  /** The time ran out (not the caller's signal). */
  expired(): boolean;
  /** "no answer in 5 s". */
  message: string;
  clear(): void;
}

/**
 * One request's time limit, from sending to the last byte: a server that accepts the connection and
 * never answers (or stops mid-reply) costs `timeoutMs`, not for ever. Connecting has its own, shorter
 * limit in fetch (10 s).
 */
export function deadline(bounds: ProbeBounds): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  const message = `no answer in ${formatSeconds(bounds.timeoutMs)}`;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(message));
  }, bounds.timeoutMs);
  const cancel = () => controller.abort(bounds.signal?.reason);
  if (bounds.signal?.aborted) cancel();
  else bounds.signal?.addEventListener('abort', cancel, { once: true });
  return {
    signal: controller.signal,
    expired: () => timedOut,
    message,
    clear: () => {
      clearTimeout(timer);
      bounds.signal?.removeEventListener('abort', cancel);
    },
  };
}

export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(ms < 10_000 ? 1 : 0))} s`;
}
