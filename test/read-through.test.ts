import { describe, expect, it } from 'vitest';
import { readThrough } from '../src/contracts/read-through.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (chunks: Uint8Array[]) => chunks.map((chunk) => new TextDecoder().decode(chunk)).join('');

/** A source that hands out `pieces` one per pull and records how far it was read and why it was cancelled. */
function source(pieces: string[]) {
  const seen = { pulled: 0, cancelled: undefined as unknown };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled === pieces.length) return controller.close();
      controller.enqueue(bytes(pieces[seen.pulled++]!));
    },
    cancel(reason) {
      seen.cancelled = reason;
    },
  }, { highWaterMark: 0 });
  return { stream, seen };
}

describe('readThrough (response bodies through a step, without the pipe machinery)', () => {
  it('passes each chunk through the step, skips chunks that give nothing, and ends with what end pushes', async () => {
    const { stream } = source(['a', '', 'b', 'c']);
    const out: Uint8Array[] = [];
    for await (const chunk of readThrough(stream, { chunk: (piece, push) => piece.byteLength && push(bytes(new TextDecoder().decode(piece).toUpperCase())), end: (push) => push(bytes('.')) })) out.push(chunk);
    expect(text(out)).toBe('ABC.');
  });

  it('reads the source only as its reader asks', async () => {
    const { stream, seen } = source(['1', '2', '3', '4']);
    const reader = readThrough(stream, { chunk: (piece, push) => push(piece) }).getReader();
    expect(text([(await reader.read()).value!])).toBe('1');
    expect(seen.pulled).toBeLessThanOrEqual(2);
    await reader.cancel('enough');
    expect(seen.cancelled).toBe('enough');
  });

  it('a step that throws errors the stream with its error and cancels the source with it (the peer is cut off)', async () => {
    const { stream, seen } = source(['ok', 'too much', 'never read']);
    const refused = new Error('past the budget');
    const reader = readThrough(stream, {
      chunk(piece, push) {
        if (piece.byteLength > 2) throw refused;
        push(piece);
      },
    }).getReader();
    expect(text([(await reader.read()).value!])).toBe('ok');
    await expect(reader.read()).rejects.toBe(refused);
    expect(seen.cancelled).toBe(refused);
    expect(seen.pulled).toBe(2);
  });
});
