/** What a body's bytes go through: each chunk in, any number out; `end` once the body has ended. Throwing stops the body. */
export interface BodyStep {
  chunk(bytes: Uint8Array, push: (out: Uint8Array) => void): void;
  end?(push: (out: Uint8Array) => void): void;
}

/**
 * `body` read through `step` as a new stream, pulled as its reader asks (back-pressure holds). A step
 * that throws errors the stream with its error and cancels `body` (the peer's connection closes).
 * Not `pipeThrough(new TransformStream(…))`: the pipe machinery (WritableStream, TransformStream,
 * pipeTo's promises) loads and runs for the first time on a run's first response, which is the first
 * tool round's critical path.
 */
export function readThrough(body: ReadableStream<Uint8Array>, step: BodyStep): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let pushed = false;
      const push = (out: Uint8Array) => {
        pushed = true;
        controller.enqueue(out);
      };
      try {
        while (!pushed) {
          const { done, value } = await reader.read();
          if (done) {
            step.end?.(push);
            controller.close();
            return;
          }
          step.chunk(value, push);
        }
      } catch (error) {
        await reader.cancel(error).catch(() => undefined);
        throw error;
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
