import { readThrough } from './read-through.js';
/**
 * The one way a network peer's bytes are bounded: counted as they arrive, and past the budget the
 * read ends with a `ByteBudgetError` naming the peer and the limit. Nothing here holds more than
 * the budget (the provider wires, the search backends, doctor's probes, language servers and MCP
 * servers all read through these).
 */
export class ByteBudgetError extends Error {
  constructor(
    readonly peer: string,
    readonly limit: number,
    readonly what: string,
  ) {
    super(`${peer} sent more than ${formatBytes(limit)} in ${what}; stopped reading.`);
    this.name = 'ByteBudgetError';
  }
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KiB`;
  return `${bytes} bytes`;
}

/** Counts bytes against a limit; `add` throws the budget's error once it is passed. */
export class ByteCounter {
  private used = 0;
  constructor(
    private readonly peer: string,
    readonly limit: number,
    private readonly what: string,
  ) {}

  add(bytes: number): void {
    this.used += bytes;
    if (this.used > this.limit) throw new ByteBudgetError(this.peer, this.limit, this.what);
  }

  reset(): void {
    this.used = 0;
  }

  get bytes(): number {
    return this.used;
  }
}

/** A fetch response's body as text, read no further than `maxBytes` (the connection is dropped past it). */
export async function readTextWithin(response: Response, maxBytes: number, peer: string): Promise<string> {
  if (!response.body) return '';
  const counter = new ByteCounter(peer, maxBytes, 'one answer');
  const decoder = new TextDecoder('utf-8');
  const parts: string[] = [];
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      counter.add(value.byteLength);
      parts.push(decoder.decode(value, { stream: true }));
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  }
  parts.push(decoder.decode());
  return parts.join('');
}

/** `body` as a stream that errors with the budget's error once more than `maxBytes` have passed through. */
export function countingStream(body: ReadableStream<Uint8Array>, peer: string, maxBytes: number, what: string): ReadableStream<Uint8Array> {
  const counter = new ByteCounter(peer, maxBytes, what);
  return readThrough(body, {
    chunk(chunk, push) {
      counter.add(chunk.byteLength);
      push(chunk);
    },
  });
}
