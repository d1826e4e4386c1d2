import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ByteCounter } from './byte-budget.js';
import { readThrough } from './read-through.js';

/** How much one model reply may send: per server-sent event and for the whole reply (reasoning included). */
export interface ReplyBudget {
  maxEventBytes: number;
  /** The whole event stream (Infinity for a stream meant to stay open, each event bounded). */
  maxReplyBytes: number;
  /** A body that is not an event stream (default maxReplyBytes). */
  maxBodyBytes?: number;
}


/**
 * Reads a server-sent event stream with a parser that is linear in its input (eventsource-parser)
 * and hands each complete event on as one chunk, written back in plain SSE form. The SDKs' own
 * decoders copy and rescan their whole buffer on every chunk, so a long event arriving in many
 * chunks took quadratic time (100 MB never finished); given whole events they scan each byte once.
 * Bytes are counted as they arrive: past the event's or the reply's budget the stream errors.
 */
export function sseReframe(body: ReadableStream<Uint8Array>, peer: string, budget: ReplyBudget): ReadableStream<Uint8Array> {
  const reply = new ByteCounter(peer, budget.maxReplyBytes, 'one reply');
  const event = new ByteCounter(peer, budget.maxEventBytes, 'one event');
  const decoder = new TextDecoder('utf-8');
  const encoder = new TextEncoder();
  let out: ((bytes: Uint8Array) => void) | undefined;
  const parser = createParser({
    onEvent(message) {
      event.reset();
      out?.(encoder.encode(serialise(message)));
    },
  });
  return readThrough(body, {
    chunk(chunk, push) {
      out = push;
      reply.add(chunk.byteLength);
      event.add(chunk.byteLength);
      parser.feed(decoder.decode(chunk, { stream: true }));
    },
    end(push) {
      out = push;
      const rest = decoder.decode();
      // An event not closed by a blank line at the end of the stream is dispatched as the SDKs do.
      parser.feed(`${rest}\n\n`);
    },
  });
}

function serialise(message: EventSourceMessage): string {
  const lines: string[] = [];
  if (message.event) lines.push(`event: ${message.event}`);
  if (message.id) lines.push(`id: ${message.id}`);
  for (const line of message.data.split('\n')) lines.push(`data: ${line}`);
  return `${lines.join('\n')}\n\n`;
}
