import { subscribe, unsubscribe } from 'node:diagnostics_channel';

/** undici (Node's fetch, which every provider SDK sends through) publishes here once a request's body is written. */
const BODY_SENT = 'undici:request:bodySent';

export interface WarmUp {
  /** No further step starts (the run ended); a step already running finishes. */
  stop(): void;
}

/**
 * Runs `steps` one at a time, each in a turn of its own, once the next HTTP request has been sent:
 * what a run needs only after its first reply (the price catalog, its tools' code and schemas)
 * loads while the model is thinking, not after its reply, and never before the request (the
 * start-up is not delayed). A reply that arrives meanwhile is handled between two steps.
 */
export function warmUpWhileRequestIsOut(steps: ReadonlyArray<() => unknown>): WarmUp {
  let stopped = false;
  const onSent = () => {
    unsubscribe(BODY_SENT, onSent);
    void runSteps();
  };
  const runSteps = async () => {
    for (const step of steps) {
      await new Promise((resolve) => setImmediate(resolve));
      if (stopped) return;
      // A step that fails is retried, and reported, where its result is needed.
      await Promise.resolve()
        .then(step)
        .catch(() => undefined);
    }
  };
  subscribe(BODY_SENT, onSent);
  return {
    stop() {
      stopped = true;
      unsubscribe(BODY_SENT, onSent);
    },
  };
}
