import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countingPieces, countText, EXACT_CHARS, MAX_RUN } from '../src/context/count-text.js';
import type { Message } from '../src/contracts/messages.js';
import { TokenCounter } from '../src/context/token-count.js';

/** The longest stretch of one kind (whitespace or not) in a piece: what BPE time is quadratic in. */
function longestRun(piece: string): number {
  let longest = 0;
  let run = 0;
  let previous: boolean | undefined;
  for (const char of piece) {
    const space = /\s/.test(char);
    run = space === previous ? run + char.length : char.length;
    previous = space;
    longest = Math.max(longest, run);
  }
  return longest;
}

/** Texts an attacker might send: long runs of one character, mixed with ordinary words. */
const hostileText = fc
  .array(
    fc.oneof(
      fc.tuple(fc.constantFrom('=', '-', 'a', ' ', '\n', 'é', '🙂', '0', '.'), fc.integer({ min: 1, max: 5_000 })).map(([char, n]) => char.repeat(n)),
      fc.string({ maxLength: 200 }),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

describe('token counting is bounded for any input', () => {
  it('cuts a run after an early word end without leaving a piece over the limit (seen: "0!!" then emoji)', () => {
    const text = `0!!${'🙂'.repeat(80)}`;
    const pieces = countingPieces(text);
    expect(pieces.join('')).toBe(text);
    for (const piece of pieces) expect(longestRun(piece)).toBeLessThanOrEqual(MAX_RUN + 1);
  });

  it('never hands the tokenizer an unbroken run longer than MAX_RUN, and loses no character', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const pieces = countingPieces(text);
        expect(pieces.join('')).toBe(text);
        for (const piece of pieces) expect(longestRun(piece)).toBeLessThanOrEqual(MAX_RUN + 1);
      }),
    );
  });

  it('hands the tokenizer at most EXACT_CHARS characters of any text, in whole code points', () => {
    fc.assert(
      fc.property(hostileText, fc.integer({ min: 1, max: 40 }), (text, times) => {
        const big = text.repeat(times);
        let handed = 0;
        countText(big, (piece) => {
          expect(piece).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
          handed += piece.length;
          return piece.length;
        });
        expect(handed).toBeLessThanOrEqual(Math.min(big.length, EXACT_CHARS));
      }),
    );
  });

  it('counts ordinary text exactly as the tokenizer does whole', async () => {
    const counter = await TokenCounter.create();
    const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
    const code = 'export function add(a: number, b: number): number {\n  return a + b; // sum\n}\n\n'.repeat(200);
    expect(counter.text(code)).toBe(countTokens(code));
  });

  it('counts a megabyte of one character, close to the exact count of a shorter run scaled', async () => {
    const counter = await TokenCounter.create();
    const tokens = counter.text('='.repeat(1_000_000));
    // o200k packs runs of `=` 64 to a token; the cuts add at most one token per MAX_RUN characters.
    expect(tokens).toBeGreaterThanOrEqual(1_000_000 / 64);
    expect(tokens).toBeLessThanOrEqual(1_000_000 / 64 + 1_000_000 / MAX_RUN + 1);
  });

  it('stops counting a history when the run is aborted, and counts each message once', async () => {
    const counter = await TokenCounter.create();
    const history: Message[] = Array.from({ length: 50 }, (_, i) => ({ role: 'tool', toolCallId: `c${i}`, name: 'bash', isError: false, content: `${i} ${'x'.repeat(EXACT_CHARS)}` }));
    const controller = new AbortController();
    controller.abort();
    await counter.warm(history, controller.signal);
    await counter.warm(history);
    const first = counter.messages(history);
    expect(counter.messages(history)).toBe(first);
  });
});
