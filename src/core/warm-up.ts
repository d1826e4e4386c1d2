import { subscribe, unsubscribe } from 'node:diagnostics_channel';

/** undici (Node's fetch, which every provider SDK sends through) publishes here once a request's body is written. */
const BODY_SENT = 'undici:request:bodySent';

export interface WarmUp {
  /** The reply is in: what follows is the round's own work, so no further step starts until the next request is out. */
  replyIn(): void;
  /** No further step starts (the run ended); a step already running finishes. */
  stop(): void;
}

/**
 * Runs `steps` one at a time, each in a turn of its own, while an HTTP request is out: what a run
 * needs only after its first reply (the price, its tools' code and schemas) loads while the model
 * is thinking, never before the request (the start-up is not delayed) and never between a reply
 * and the next request (a model that answers at once does not wait for code its round does not
 * call; the loop loads a tool the reply names itself). A reply that arrives meanwhile is handled
 * between two steps.
 */
export function warmUpWhileRequestIsOut(steps: ReadonlyArray<() => unknown>): WarmUp {
  let stopped = false;
  let out = false;
  let running = false;
  let next = 0;
  const onSent = () => {
    out = true;
    void runSteps();
  };
  const runSteps = async () => {
    if (running) return;
    running = true;
    try {
      while (next < steps.length) {
        await new Promise((resolve) => setImmediate(resolve));
        if (stopped || !out) return;
        const step = steps[next++]!;
        // A step that fails is retried, and reported, where its result is needed.
        await Promise.resolve()
          .then(step)
          .catch(() => undefined);
      }
      unsubscribe(BODY_SENT, onSent);
    } finally {
      running = false;
    }
  };
  subscribe(BODY_SENT, onSent);
  return {
    replyIn() {
      out = false;
    },
    stop() {
      stopped = true;
      unsubscribe(BODY_SENT, onSent);
    },
  };
}
