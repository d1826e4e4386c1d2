import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ClientOptions, ServerEvent } from './create-client.js';

export interface ReadEventsOptions extends ClientOptions {
  sessionId: string;
  /** Start after this sequence number (default 0: from the first event). */
  after?: number;
  signal?: AbortSignal;
  /** Wait before reconnecting after the stream broke (default 1000 ms; a server's `retry:` or Retry-After overrides it). */
  retryMs?: number;
}

/** The server refused the stream (no token, an origin, no such session): reconnecting would not help. */
export class EventStreamRefused extends Error {
  override name = 'EventStreamRefused';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A session's numbered events, in order, for as long as the caller reads (or until `signal`).
 * When the connection breaks (the server restarted, a proxy timed out) it reconnects with
 * Last-Event-ID, and the server resumes exactly after the last event yielded: none missed, none twice.
 */
export async function* readEvents(options: ReadEventsOptions): AsyncGenerator<ServerEvent> {
  const fetcher = options.fetch ?? globalThis.fetch;
  let last = options.after ?? 0;
  let retryMs = options.retryMs ?? 1000;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/v1/sessions/${encodeURIComponent(options.sessionId)}/events`;
  while (!options.signal?.aborted) {
    let response: Response | undefined;
    try {
      response = await fetcher(url, {
        headers: { authorization: `Bearer ${options.token}`, accept: 'text/event-stream', 'last-event-id': String(last) },
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      if (options.signal?.aborted) return;
      void error; // the server is down or restarting: try again below
    }
    if (response && !response.ok) {
      const text = await response.text().catch(() => '');
      if (response.status !== 503 && response.status < 500) throw new EventStreamRefused(response.status, `the server refused the event stream (${response.status}): ${text}`);
      const after = Number(response.headers.get('retry-after'));
      if (after > 0) retryMs = after * 1000;
    } else if (response?.body) {
      const queue: EventSourceMessage[] = [];
      const parser = createParser({
        onEvent: (message) => queue.push(message),
        onRetry: (interval) => (retryMs = interval),
      });
      try {
        for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) {
          parser.feed(chunk);
          while (queue.length) {
            const message = queue.shift()!;
            const event = JSON.parse(message.data) as ServerEvent;
            if (event.seq <= last) continue;
            last = event.seq;
            yield event;
          }
        }
      } catch (error) {
        if (options.signal?.aborted) return;
        void error; // the connection broke mid-stream: reconnect after `last`
      }
    }
    await pause(retryMs, options.signal);
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
