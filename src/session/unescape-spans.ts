/**
 * Text as a reader would recover it after undoing every JSON and shell spelling: backslash escapes
 * (`\uXXXX` any case, `\u{…}`, `\UXXXXXXXX`, `\xHH`, octal `\NNN` and `\0NNN`, `\/`, `\-`, a
 * backslash-newline) undone round after round (JSON inside a JSON string, a shell escape written
 * with JSON escapes), then quotes removed (`'sk-'"li"ve`, `$'…'`), last, since a quote may itself
 * come from an escape. Liberal on purpose: it serves detection only, so reading an escape where a
 * shell would not (inside '…') finds what `printf` would make of it.
 *
 * `from[i]`/`to[i]` give the span of the original text that decoded character i came from, so a
 * secret found in the decoded text is replaced in the original over exactly its own span.
 */
export interface Unescaped {
  text: string;
  from: Int32Array;
  to: Int32Array;
  /** A `\0` then octal digits was read in some round: the other octal reading may differ. */
  zeroOctal: boolean;
}

const MAX_ROUNDS = 6;

/** `\0NNN` means NNN to `echo -e` and `\0NN` then a digit to printf: `echoOctal` picks the reading. */
export function unescapeSpans(raw: string, echoOctal = false): Unescaped {
  let current = identity(raw);
  for (let round = 0; round < MAX_ROUNDS && current.text.includes('\\'); round++) current = compose(current, unescapeOnce(current.text, echoOctal));
  return compose(current, unquote(current.text));
}

/** The same text as unescapeSpans(raw).text, without the spans: what a redactor checks first, as most texts hold no secret. */
export function unescapedText(raw: string, echoOctal = false): { text: string; zeroOctal: boolean } {
  let text = raw;
  let zeroOctal = false;
  for (let round = 0; round < MAX_ROUNDS && text.includes('\\'); round++) {
    zeroOctal ||= ZERO_OCTAL.test(text);
    text = text.replace(escapes(echoOctal, 'g'), (...match: string[]) => decodeEscape(match));
  }
  return { text: text.replace(QUOTE, ''), zeroOctal };
}

function identity(text: string): Unescaped {
  const from = new Int32Array(text.length);
  const to = new Int32Array(text.length);
  for (let i = 0; i < text.length; i++) {
    from[i] = i;
    to[i] = i + 1;
  }
  return { text, from, to, zeroOctal: false };
}

/** `next` decodes `current.text`; the result maps back to what `current` came from. */
function compose(current: Unescaped, next: Unescaped): Unescaped {
  const from = new Int32Array(next.text.length);
  const to = new Int32Array(next.text.length);
  for (let i = 0; i < next.text.length; i++) {
    from[i] = current.from[next.from[i]!]!;
    to[i] = current.to[next.to[i]! - 1]!;
  }
  return { text: next.text, from, to, zeroOctal: current.zeroOctal || next.zeroOctal };
}

class SpanWriter {
  private readonly out: string[] = [];
  private readonly from: Int32Array;
  private readonly to: Int32Array;
  constructor(length: number) {
    this.from = new Int32Array(length);
    this.to = new Int32Array(length);
  }
  push(text: string, start: number, end: number): void {
    for (let unit = 0; unit < text.length; unit++) {
      this.from[this.out.length] = start;
      this.to[this.out.length] = end;
      this.out.push(text[unit]!);
    }
  }
  done(zeroOctal = false): Unescaped {
    const length = this.out.length;
    return { text: this.out.join(''), from: this.from.subarray(0, length), to: this.to.subarray(0, length), zeroOctal };
  }
}

function unescapeOnce(raw: string, echoOctal: boolean): Unescaped {
  // An escape never makes more characters than it spans, except a code point above U+FFFF (two units from 9+).
  const out = new SpanWriter(raw.length);
  const escape = escapes(echoOctal, 'y');
  let i = 0;
  while (i < raw.length) {
    if (raw[i] !== '\\') {
      out.push(raw[i]!, i, i + 1);
      i++;
      continue;
    }
    escape.lastIndex = i;
    const match = escape.exec(raw)!;
    out.push(decodeEscape(match), i, i + match[0].length);
    i += match[0].length;
  }
  return out.done(ZERO_OCTAL.test(raw));
}

function unquote(text: string): Unescaped {
  const out = new SpanWriter(text.length);
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    // `$'…'` and `$"…"`: the `$` goes with the quote.
    if (char === '$' && (text[i + 1] === '"' || text[i + 1] === "'")) i++;
    else if (char !== '"' && char !== "'") out.push(char, i, i + 1);
  }
  return out.done();
}

const ZERO_OCTAL = /\\0[0-7]/;
const QUOTE = /\$?["']/g;
const SIMPLE: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', a: '\x07', e: '\x1b', '\n': '' };
const ESCAPE_BODY = String.raw`u\{([0-9a-fA-F]{1,5})\}|u([0-9a-fA-F]{4})|U(000[0-9a-fA-F]{5}|0010[0-9a-fA-F]{4})|x([0-9a-fA-F]{1,2})`;
const OCTAL = String.raw`|([0-7]{1,3})|([\s\S])|$`;
/** One backslash escape; the groups: code point, UTF-16 unit, long code point, byte, echo's \0NNN, octal, any other character. */
const ESCAPES = new Map<string, RegExp>();
const escapes = (echoOctal: boolean, flags: 'g' | 'y'): RegExp => {
  const key = `${echoOctal}${flags}`;
  let made = ESCAPES.get(key);
  // Without echo's reading, its group is kept (never matching) so the groups keep their numbers.
  if (!made) ESCAPES.set(key, (made = new RegExp(String.raw`\\(?:${ESCAPE_BODY}${echoOctal ? '|0([0-7]{3})' : '|(?!)()'}${OCTAL})`, flags)));
  made.lastIndex = 0;
  return made;
};

function decodeEscape(match: ArrayLike<string | undefined>): string {
  const [, point, unit, longPoint, byte, echoOctal, octal, other] = Array.from(match);
  if (point !== undefined) return String.fromCodePoint(parseInt(point, 16));
  if (unit !== undefined) return String.fromCharCode(parseInt(unit, 16));
  if (longPoint !== undefined) return String.fromCodePoint(parseInt(longPoint, 16));
  if (byte !== undefined) return String.fromCharCode(parseInt(byte, 16));
  if (echoOctal) return String.fromCharCode(parseInt(echoOctal, 8) & 0xff);
  if (octal !== undefined) return String.fromCharCode(parseInt(octal, 8) & 0xff);
  return other === undefined ? '' : (SIMPLE[other] ?? other);
}
