import { ESCAPE_WAIT_MS, KeyParser, type Key } from '../tui/key-parser.js';

/** A terminal's input, as process.stdin is when it is one. */
export interface KeyInput extends NodeJS.ReadableStream {
  isTTY?: boolean;
  isRaw?: boolean;
  readableEnded?: boolean;
  setRawMode(mode: boolean): unknown;
}

/** The answer `decide` gave, or why no key can answer (no input left, the call aborted, the terminal failing). */
export type KeyAnswer<T> = { chosen: T } | { ended: string };

export function takesSingleKeys(input: NodeJS.ReadableStream): input is KeyInput {
  return (input as KeyInput).isTTY === true && typeof (input as KeyInput).setRawMode === 'function';
}

/**
 * Waits, in raw mode, for a key that `decide` accepts. Only the first key of each read counts: the
 * rest of a burst (a paste, keys typed together) is dropped, so one read never answers more than the
 * one question asked. The terminal's mode is put back on every path, and at exit should the process
 * end while it waits.
 */
export function readKeyAnswer<T>(input: KeyInput, decide: (key: Key) => T | undefined, signal?: AbortSignal): Promise<KeyAnswer<T>> {
  if (input.readableEnded) return Promise.resolve({ ended: 'no input left' });
  if (signal?.aborted) return Promise.resolve({ ended: 'cancelled' });
  return new Promise((resolve) => {
    const parser = new KeyParser();
    const wasRaw = input.isRaw === true;
    let escapeTimer: NodeJS.Timeout | undefined;
    const restore = () => {
      try {
        input.setRawMode(wasRaw);
      } catch {
        // The terminal is gone (hung up): there is no mode left to put back.
      }
    };
    const finish = (answer: KeyAnswer<T>) => {
      clearTimeout(escapeTimer);
      input.off('data', onData);
      input.off('end', onEnd);
      input.off('close', onEnd);
      input.off('error', onError);
      signal?.removeEventListener('abort', onAbort);
      process.off('exit', restore);
      input.pause();
      restore();
      resolve(answer);
    };
    const answerWith = (keys: Key[]) => {
      const first = keys[0];
      const chosen = first && decide(first);
      if (chosen !== undefined) finish({ chosen });
    };
    const onData = (data: Buffer | string) => {
      clearTimeout(escapeTimer);
      const keys = parser.feed(data.toString());
      // A lone ESC may be the start of a sequence cut between reads: it waits a moment for the rest.
      if (keys.length === 0 && parser.pending) escapeTimer = setTimeout(() => answerWith(parser.flush()), ESCAPE_WAIT_MS);
      else {
        parser.flush();
        answerWith(keys);
      }
    };
    const onEnd = () => finish({ ended: 'no input left' });
    const onError = (error: Error) => finish({ ended: `cannot read the terminal (${error.message})` });
    const onAbort = () => finish({ ended: 'cancelled' });
    try {
      input.setRawMode(true);
    } catch (error) {
      return onError(error as Error);
    }
    process.once('exit', restore);
    signal?.addEventListener('abort', onAbort, { once: true });
    input.on('data', onData);
    input.once('end', onEnd);
    input.once('close', onEnd);
    input.once('error', onError);
    input.resume();
  });
}
