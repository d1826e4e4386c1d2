import type { ServerResponse } from 'node:http';
import type { ApiEvent } from './api-schemas.js';
import type { HostedSession } from './session-port.js';

export interface StreamLimits {
  /** Live events held for one client while it is slow; past it they are dropped and read again from the file. */
  buffer: number;
  /** Events read from the file at a time. */
  page: number;
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs: number;
}

/** One event as Server-Sent Events: `id:` is its sequence number, so a reconnect's Last-Event-ID resumes after it. */
export function sseFrame(event: ApiEvent): string {
  return `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * Streams a session's events after `after` until the client goes. It catches up from the session
 * file, then follows live events through a bounded buffer; a client too slow for the buffer goes
 * back to the file, so a stalled client costs at most `buffer` events in memory and never misses
 * or repeats a stored one (deltas it was too slow for are gone: the stored message holds their text).
 */
export async function streamEvents(session: HostedSession, after: number, response: ServerResponse, limits: StreamLimits): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
  response.write(': events\n\n');
  let closed = response.destroyed;
  let wake: (() => void) | undefined;
  const nudge = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  const onClose = () => {
    closed = true;
    nudge();
  };
  response.on('close', onClose);
  let live: ApiEvent[] = [];
  let overflowed = false;
  // Subscribed before the first read of the file: whatever is published after that read is in `live`.
  const unsubscribe = session.subscribe((event) => {
    if (live.length >= limits.buffer) {
      live = [];
      overflowed = true;
    } else live.push(event);
    nudge();
  });
  const heartbeat = setInterval(() => response.write(': ping\n\n'), limits.heartbeatMs);
  heartbeat.unref();
  let cursor = after;
  const send = async (event: ApiEvent) => {
    cursor = event.seq;
    if (response.write(sseFrame(event)) || closed) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        response.off('drain', done);
        response.off('close', done);
        resolve();
      };
      response.on('drain', done);
      response.on('close', done);
    });
  };
  try {
    while (!closed) {
      const page = await session.readAfter(cursor, limits.page);
      for (const event of page) {
        if (closed) return;
        await send(event);
      }
      if (page.length === limits.page) continue;
      overflowed = false;
      // Live, in order; what the file already gave is skipped. An overflow sends the client back to the file.
      for (;;) {
        const next = live.shift();
        if (closed || overflowed) break;
        if (next === undefined) {
          await new Promise<void>((resolve) => (wake = resolve));
          continue;
        }
        if (next.seq > cursor) await send(next);
      }
      live = [];
    }
  } finally {
    clearInterval(heartbeat);
    unsubscribe();
    response.off('close', onClose);
    if (!response.writableEnded) response.end();
  }
}

/** `Accept: application/json`: one page of stored events after `after`. */
export async function eventPage(session: HostedSession, after: number, limit: number): Promise<{ events: ApiEvent[]; next: number; more: boolean }> {
  const read = await session.readAfter(after, limit + 1);
  const events = read.slice(0, limit);
  return { events, next: events.at(-1)?.seq ?? after, more: read.length > limit };
}
