/**
 * Turns a grep pattern into the same regex for two engines: JavaScript (`u` flag) and ripgrep's
 * Rust regex. The syntax is their common subset; constructs they read differently are rewritten
 * to one meaning (\d \w \s \b are ASCII, `.` is anything but a newline) and constructs only one
 * of them has (lookaround, backreferences, inline flags, POSIX classes) are refused with a reason.
 * Every literal punctuation character is emitted as a hex escape, so no escaping table of either
 * engine matters.
 */
export type TranslatedPattern =
  | {
      ok: true;
      js: string;
      rust: string;
      /** Text every matching line contains (the longest literal run outside groups), for a fast prefilter. */
      required: string | undefined;
    }
  | { ok: false; error: string };

const MAX_REPEAT = 1000;
const CLASS_ESCAPES: Record<string, string> = { d: '0-9', w: '0-9A-Za-z_', s: 'WS' };
const ASSERTIONS: Record<string, { js: string; rust: string }> = {
  b: { js: '\\b', rust: '(?-u:\\b)' },
  B: { js: '\\B', rust: '(?-u:\\B)' },
};
const CONTROL_ESCAPES: Record<string, number> = { t: 9, r: 13, f: 12, v: 11 };
/**
 * Bytes that are not UTF-8 decode to U+FFFD in JavaScript, while ripgrep's `.` and negated
 * classes never match them. Leaving U+FFFD out of both engines' `.` and negated classes makes
 * them agree on such files (a real U+FFFD is then matched only literally).
 */
const NOT_REPLACEMENT = { js: '\\u{fffd}', rust: '\\x{fffd}' };

class PatternError extends Error {}

interface Output {
  js: string;
  rust: string;
}

interface Translation extends Output {
  required: string | undefined;
}

function hexJs(cp: number): string {
  return cp <= 0xff ? `\\x${cp.toString(16).padStart(2, '0')}` : `\\u{${cp.toString(16)}}`;
}

function hexRust(cp: number): string {
  return `\\x{${cp.toString(16)}}`;
}

/** A literal code point, written so that neither engine can read it as syntax. */
function literal(cp: number): Output {
  if (cp === 0xfffd) throw new PatternError('U+FFFD cannot be searched for: it is what undecodable bytes turn into');
  const plain = (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || cp === 0x5f || cp === 0x20 || cp >= 0x80;
  if (plain && !(cp >= 0xd800 && cp <= 0xdfff)) {
    const text = String.fromCodePoint(cp);
    return { js: text, rust: text };
  }
  return { js: hexJs(cp), rust: hexRust(cp) };
}

/** Class contents (without brackets) for \d \w \s, shared by both engines. */
function classBody(letter: string, engine: 'js' | 'rust'): string {
  const body = CLASS_ESCAPES[letter]!;
  if (body !== 'WS') return body;
  // ASCII whitespace without \n: a line never contains one, and ripgrep refuses a literal \n.
  const hex = engine === 'js' ? hexJs : hexRust;
  return `${hex(9)}${hex(11)}-${hex(13)}${hex(32)}`;
}

class Translator {
  private readonly chars: string[];
  private i = 0;
  private js = '';
  private rust = '';
  private canRepeat = false;
  private depth = 0;
  /** Literal runs at the top level, for `required`; the current one is `run`. */
  private readonly runs: string[][] = [];
  private run: string[] = [];
  private lastWasLiteral = false;
  private alternation = false;

  constructor(pattern: string) {
    this.chars = Array.from(pattern);
  }

  translate(): Translation {
    while (this.i < this.chars.length) this.atom();
    if (this.depth > 0) throw new PatternError('a group "(" is never closed');
    this.endRun();
    const longest = this.runs.reduce<string[]>((best, run) => (run.length > best.length ? run : best), []);
    return { js: this.js, rust: this.rust, required: this.alternation || longest.length === 0 ? undefined : longest.join('') };
  }

  /** `char` is the literal character this output matches, when it is one (and not in a group). */
  private emit(out: Output, canRepeat: boolean, char?: string): void {
    this.js += out.js;
    this.rust += out.rust;
    this.canRepeat = canRepeat;
    this.lastWasLiteral = char !== undefined && this.depth === 0;
    if (this.lastWasLiteral) this.run.push(char!);
    else this.endRun();
  }

  private endRun(): void {
    if (this.run.length > 0) this.runs.push(this.run);
    this.run = [];
  }

  private peek(offset = 0): string | undefined {
    return this.chars[this.i + offset];
  }

  private atom(): void {
    const c = this.chars[this.i++]!;
    switch (c) {
      case '\\':
        return this.escape();
      case '.':
        return this.emit({ js: `[^\\n${NOT_REPLACEMENT.js}]`, rust: `[^\\n${NOT_REPLACEMENT.rust}]` }, true);
      case '|':
        if (this.depth === 0) this.alternation = true;
        return this.emit({ js: c, rust: c }, false);
      case '^':
      case '$':
        return this.emit({ js: c, rust: c }, false);
      case '(':
        return this.openGroup();
      case ')':
        if (this.depth === 0) throw new PatternError('")" has no matching "("; escape it as \\)');
        this.depth--;
        return this.emit({ js: ')', rust: ')' }, true);
      case '[':
        return this.characterClass();
      case '*':
      case '+':
      case '?':
        return this.quantifier(c);
      case '{': {
        const counted = this.countedRepeat();
        if (!counted) throw new PatternError('a literal "{" must be escaped as \\{ (a repeat is written {n}, {n,} or {n,m})');
        return this.quantifier(counted);
      }
      case '}':
      case ']':
        throw new PatternError(`a literal "${c}" must be escaped as \\${c}`);
      default:
        return this.emit(literal(c.codePointAt(0)!), true, c);
    }
  }

  private quantifier(text: string): void {
    if (!this.canRepeat) throw new PatternError(`"${text}" has nothing to repeat (escape it to match it literally)`);
    // A repeated literal ends the run; one that may be absent is not required at all.
    if (this.lastWasLiteral && (text === '*' || text === '?' || text.startsWith('{0'))) this.run.pop();
    let lazy = '';
    if (this.peek() === '?') {
      this.i++;
      lazy = '?';
    }
    this.emit({ js: text + lazy, rust: text + lazy }, false);
  }

  /** Reads "n}", "n,}" or "n,m}" after a "{"; undefined (and nothing consumed) when it is not one. */
  private countedRepeat(): string | undefined {
    const rest = this.chars.slice(this.i, this.i + 24).join('');
    const match = /^(\d+)(,(\d*))?\}/.exec(rest);
    if (!match) return undefined;
    const min = Number(match[1]);
    const max = match[3] === undefined ? min : match[3] === '' ? undefined : Number(match[3]);
    if (min > MAX_REPEAT || (max !== undefined && max > MAX_REPEAT)) throw new PatternError(`repeat counts above ${MAX_REPEAT} are not supported`);
    if (max !== undefined && max < min) throw new PatternError(`the repeat {${match[0]} has its maximum below its minimum`);
    this.i += match[0].length;
    return `{${match[0]}`;
  }

  private openGroup(): void {
    this.depth++;
    if (this.peek() !== '?') return this.emit({ js: '(', rust: '(' }, false);
    const rest = this.chars.slice(this.i, this.i + 40).join('');
    if (rest.startsWith('?:')) {
      this.i += 2;
      return this.emit({ js: '(?:', rust: '(?:' }, false);
    }
    if (/^\?(=|!|<=|<!)/.test(rest)) {
      throw new PatternError('lookahead and lookbehind ((?=, (?!, (?<=, (?<!) are not supported by ripgrep; match the text itself instead');
    }
    const named = /^\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
    if (named) {
      // Group names mean nothing to a line search; a plain group keeps both engines' syntax simple.
      this.i += named[0].length;
      return this.emit({ js: '(', rust: '(' }, false);
    }
    throw new PatternError('inline flags and other "(?" groups are not supported; use ignore_case for case-insensitive search and (?:...) for grouping');
  }

  /** A backslash outside a class. */
  private escape(): void {
    const e = this.chars[this.i++];
    if (e === undefined) throw new PatternError('the pattern ends with a lone backslash');
    if (e in CLASS_ESCAPES) return this.emit({ js: `[${classBody(e, 'js')}]`, rust: `[${classBody(e, 'rust')}]` }, true);
    const upper = e.toLowerCase();
    if (e !== upper && upper in CLASS_ESCAPES) return this.emit({ js: `[^${classBody(upper, 'js')}${NOT_REPLACEMENT.js}]`, rust: `[^${classBody(upper, 'rust')}${NOT_REPLACEMENT.rust}]` }, true);
    const assertion = ASSERTIONS[e];
    if (assertion) return this.emit(assertion, false);
    const cp = this.escapedCodePoint(e);
    this.emit(literal(cp), true, String.fromCodePoint(cp));
  }

  /** The code point a literal escape stands for (shared by classes and plain text). */
  private escapedCodePoint(e: string): number {
    if (e in CONTROL_ESCAPES) return CONTROL_ESCAPES[e]!;
    if (e === 'n') throw new PatternError('grep matches one line at a time, so \\n can never match; search for a pattern within one line');
    if (e === '0') {
      if (/\d/.test(this.peek() ?? '')) throw new PatternError('octal escapes are not supported; use \\xHH');
      return 0;
    }
    if (/[1-9]/.test(e) || e === 'k') throw new PatternError('backreferences (\\1, \\k<name>) are not supported by ripgrep');
    if (e === 'x') return this.hexDigits(/^[0-9A-Fa-f]{2}/, 2, '\\x needs two hex digits, as in \\x41');
    if (e === 'u') {
      if (this.peek() === '{') {
        const rest = this.chars.slice(this.i, this.i + 10).join('');
        const braced = /^\{([0-9A-Fa-f]{1,6})\}/.exec(rest);
        if (!braced) throw new PatternError('\\u{...} needs 1 to 6 hex digits, as in \\u{1F600}');
        this.i += braced[0].length;
        return this.checkCodePoint(parseInt(braced[1]!, 16));
      }
      return this.checkCodePoint(this.hexDigits(/^[0-9A-Fa-f]{4}/, 4, '\\u needs four hex digits (\\u00E9) or braces (\\u{1F600})'));
    }
    const cp = e.codePointAt(0)!;
    if (cp < 0x80 && !/[A-Za-z0-9]/.test(e)) return cp;
    throw new PatternError(`the escape \\${e} is not supported (supported: \\d \\w \\s \\D \\W \\S \\b \\B \\t \\r \\f \\v \\0 \\xHH \\uHHHH \\u{H..} and escaped punctuation)`);
  }

  private hexDigits(shape: RegExp, length: number, message: string): number {
    const text = this.chars.slice(this.i, this.i + length).join('');
    if (!shape.test(text)) throw new PatternError(message);
    this.i += length;
    return parseInt(text, 16);
  }

  private checkCodePoint(cp: number): number {
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) throw new PatternError(`U+${cp.toString(16).toUpperCase()} is not a valid character`);
    return cp;
  }

  private characterClass(): void {
    let js = '[';
    let rust = '[';
    const negated = this.peek() === '^';
    if (negated) {
      this.i++;
      js += '^';
      rust += '^';
    }
    if (this.peek() === ']') throw new PatternError('a class cannot start with "]"; escape it as \\] (an empty class is not supported)');
    let items = 0;
    for (;;) {
      const c = this.chars[this.i++];
      if (c === undefined) throw new PatternError('a class "[" is never closed');
      if (c === ']') break;
      if (c === '[') throw new PatternError('a "[" inside a class must be escaped as \\[ (POSIX classes like [:alpha:] are not supported)');
      const start = this.classAtom(c);
      if (typeof start === 'string') {
        js += classBody(start, 'js');
        rust += classBody(start, 'rust');
      } else if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) {
        this.i++;
        const endChar = this.chars[this.i++]!;
        if (endChar === '-' || endChar === '[') throw new PatternError('a range cannot end with an unescaped "-" or "["; escape it');
        const end = this.classAtom(endChar);
        if (typeof end === 'string') throw new PatternError(`a range cannot end with \\${end}`);
        if (end < start) throw new PatternError(`the range ${String.fromCodePoint(start)}-${String.fromCodePoint(end)} is out of order`);
        for (const [from, to] of withoutReplacement(start, end)) {
          js += from === to ? literal(from).js : `${literal(from).js}-${literal(to).js}`;
          rust += from === to ? literal(from).rust : `${literal(from).rust}-${literal(to).rust}`;
        }
      } else {
        if (c === '-' && items > 0 && this.peek() !== ']') throw new PatternError('put a literal "-" first or last in a class, or escape it as \\-');
        js += literal(start).js;
        rust += literal(start).rust;
      }
      items++;
    }
    if (negated) {
      js += NOT_REPLACEMENT.js;
      rust += NOT_REPLACEMENT.rust;
    }
    this.emit({ js: js + ']', rust: rust + ']' }, true);
  }

  /** One class member: a code point, or the letter of \d \w \s. */
  private classAtom(c: string): number | string {
    if (c !== '\\') return c.codePointAt(0)!;
    const e = this.chars[this.i++];
    if (e === undefined) throw new PatternError('a class "[" is never closed');
    if (e in CLASS_ESCAPES) return e;
    if (/[DWS]/.test(e)) throw new PatternError(`\\${e} is not supported inside a class; write the class out (for example [^0-9] for \\D)`);
    if (e === 'b' || e === 'B') throw new PatternError(`\\${e} is not supported inside a class`);
    return this.escapedCodePoint(e);
  }
}

/** A class range with U+FFFD taken out (see NOT_REPLACEMENT). */
function withoutReplacement(start: number, end: number): Array<[number, number]> {
  if (start > 0xfffd || end < 0xfffd) return [[start, end]];
  const parts: Array<[number, number]> = [];
  if (start < 0xfffd) parts.push([start, 0xfffc]);
  if (end > 0xfffd) parts.push([0xfffe, end]);
  if (parts.length === 0) throw new PatternError('U+FFFD cannot be searched for: it is what undecodable bytes turn into');
  return parts;
}

export function translatePattern(pattern: string): TranslatedPattern {
  if (pattern.length === 0) return { ok: false, error: 'The pattern is empty.' };
  try {
    const out = new Translator(pattern).translate();
    new RegExp(out.js, 'u');
    return { ok: true, ...out };
  } catch (error) {
    const reason = error instanceof PatternError ? error.message : (error as Error).message;
    return { ok: false, error: `Invalid pattern ${JSON.stringify(pattern)}: ${reason}.` };
  }
}
