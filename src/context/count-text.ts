/**
 * Token counting bounded in time for any input. Byte-pair encoding of one long "word" (120,000 `=`,
 * a line of spaces) is quadratic in its length, and even ordinary text costs a few microseconds a
 * character, so the tokenizer is only ever handed pieces with no unbroken run longer than MAX_RUN,
 * and a text longer than EXACT_CHARS is estimated from its head and tail. Both are deterministic:
 * the same text always gives the same count (stubbing depends on that).
 */
export type Encoder = (text: string) => number;

/** Longest run of one kind (spaces, or non-spaces) the tokenizer sees unbroken. */
export const MAX_RUN = 128;
/** Pieces are gathered up to about this size at whitespace, for fewer tokenizer calls. */
const PIECE_CHARS = 4_096;
/** Longer texts are counted from a head and a tail of this many characters in all, then scaled. */
export const EXACT_CHARS = 16 * 1024;

export function countText(text: string, encode: Encoder): number {
  if (text.length <= MAX_RUN) return text ? encode(text) : 0;
  if (text.length <= EXACT_CHARS) return countPieces(text, encode);
  // Ends moved back off a low surrogate, so no code point is cut in two.
  const headEnd = EXACT_CHARS / 2 - (isLowSurrogate(text.charCodeAt(EXACT_CHARS / 2)) ? 1 : 0);
  const tailStart = text.length - EXACT_CHARS / 2 + (isLowSurrogate(text.charCodeAt(text.length - EXACT_CHARS / 2)) ? 1 : 0);
  const sampled = countPieces(text.slice(0, headEnd), encode) + countPieces(text.slice(tailStart), encode);
  return Math.ceil((sampled * text.length) / (headEnd + text.length - tailStart));
}

function countPieces(text: string, encode: Encoder): number {
  let tokens = 0;
  for (const piece of countingPieces(text)) tokens += encode(piece);
  return tokens;
}

/**
 * Cuts where whitespace starts after non-whitespace (where the tokenizer's own words start, so the
 * count does not change); a longer run is cut after the last letter or digit that ends a word, or
 * else anywhere (at most one token more per cut), never inside a surrogate pair.
 */
export function countingPieces(text: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  let runStart = 0;
  let wordEnd = -1;
  let previous = text.charCodeAt(0);
  let previousSpace = isSpace(previous);
  for (let i = 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const space = isSpace(code);
    if (space !== previousSpace) {
      runStart = i;
      wordEnd = -1;
      if (space && i - start >= PIECE_CHARS) {
        pieces.push(text.slice(start, i));
        start = i;
      }
    } else if (!space && isWordChar(previous) && !isWordChar(code)) {
      wordEnd = i;
    }
    if (i - runStart >= MAX_RUN && !isLowSurrogate(code)) {
      // A word end so far back that the rest is already a full run would leave a piece over the limit.
      const cut = wordEnd > runStart && i - wordEnd < MAX_RUN - 1 ? wordEnd : i;
      pieces.push(text.slice(start, cut));
      start = cut;
      runStart = cut;
      wordEnd = -1;
    }
    previous = code;
    previousSpace = space;
  }
  pieces.push(text.slice(start));
  return pieces;
}

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || code === 0x3000 || (code >= 0x2000 && code <= 0x200a);
}

/** ASCII letters and digits, and anything non-ASCII (most of it letters). */
function isWordChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code >= 128;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
