/**
 * A forgiving JSON reader for what models actually write: strict JSON plus single-quoted strings,
 * bare keys, trailing commas, and Python's True/False/None. It reads one value starting at
 * `start` and reports where it ended, so text after the value is the caller's business.
 * It never throws: every failure is a message with a position.
 */
export type LenientResult = { ok: true; value: unknown; end: number } | { ok: false; error: string; at: number };

const MAX_DEPTH = 64;
const WORDS: Record<string, unknown> = { true: true, false: false, null: null, True: true, False: false, None: null };

class Failure {
  constructor(
    readonly error: string,
    readonly at: number,
  ) {}
}

export function readLenientJson(text: string, start = 0): LenientResult {
  let i = start;

  const fail = (error: string): never => {
    throw new Failure(error, i);
  };
  const skipSpace = () => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
  };

  const readString = (): string => {
    const quote = text[i]!;
    i++;
    let out = '';
    while (i < text.length) {
      const ch = text[i]!;
      if (ch === quote) {
        i++;
        return out;
      }
      if (ch === '\\') {
        const next = text[i + 1];
        if (next === undefined) break;
        if (next === 'u') {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('a \\u escape needs four hex digits');
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
          continue;
        }
        const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '/': '/', '\\': '\\', '"': '"', "'": "'" };
        out += escapes[next] ?? next;
        i += 2;
        continue;
      }
      // A run of plain characters in one slice. Raw newlines are kept: models often write them.
      let run = i + 1;
      while (run < text.length && text[run] !== quote && text[run] !== '\\') run++;
      out += text.slice(i, run);
      i = run;
    }
    return fail('a string is not closed');
  };

  const readNumber = (): number => {
    const match = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 64));
    if (!match) return fail(`unexpected character ${JSON.stringify(text[i])}`);
    i += match[0].length;
    return Number(match[0]);
  };

  const readKey = (): string => {
    const ch = text[i];
    if (ch === '"' || ch === "'") return readString();
    const match = /^[A-Za-z_$][\w$-]*/.exec(text.slice(i, i + 200));
    if (!match) return fail('expected a key');
    i += match[0].length;
    return match[0];
  };

  const readValue = (depth: number): unknown => {
    if (depth > MAX_DEPTH) fail('nested too deeply');
    skipSpace();
    const ch = text[i];
    if (ch === undefined) return fail('the text ended before a value');
    if (ch === '{') return readObject(depth);
    if (ch === '[') return readArray(depth);
    if (ch === '"' || ch === "'") return readString();
    const word = /^[A-Za-z_]+/.exec(text.slice(i, i + 40))?.[0];
    if (word !== undefined) {
      if (!(word in WORDS)) fail(`unexpected word "${word}" (strings need quotes)`);
      i += word.length;
      return WORDS[word];
    }
    return readNumber();
  };

  const readObject = (depth: number): Record<string, unknown> => {
    i++;
    const out: Record<string, unknown> = {};
    for (;;) {
      skipSpace();
      if (text[i] === '}') {
        i++;
        return out;
      }
      const key = readKey();
      skipSpace();
      if (text[i] !== ':') fail(`expected ":" after the key "${key}"`);
      i++;
      const value = readValue(depth + 1);
      // defineProperty: a "__proto__" key from the model must stay a plain key.
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      skipSpace();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '}') {
        i++;
        return out;
      }
      fail(i >= text.length ? 'an object is not closed' : 'expected "," or "}" in an object');
    }
  };

  const readArray = (depth: number): unknown[] => {
    i++;
    const out: unknown[] = [];
    for (;;) {
      skipSpace();
      if (text[i] === ']') {
        i++;
        return out;
      }
      out.push(readValue(depth + 1));
      skipSpace();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === ']') {
        i++;
        return out;
      }
      fail(i >= text.length ? 'an array is not closed' : 'expected "," or "]" in an array');
    }
  };

  try {
    const value = readValue(0);
    return { ok: true, value, end: i };
  } catch (error) {
    if (error instanceof Failure) return { ok: false, error: error.error, at: error.at };
    return { ok: false, error: String(error), at: i };
  }
}
