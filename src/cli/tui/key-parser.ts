/** A key press, decoded from the bytes a terminal sends in raw mode. */
export interface Key {
  /** `char` for printable text (in `text`), `paste` for a bracketed paste (in `text`), else the key's name. */
  name: string;
  text?: string;
  ctrl?: boolean;
  meta?: boolean;
  shift?: boolean;
}

/** How long a lone ESC waits for the rest of a sequence split across reads before it is the Escape key. */
export const ESCAPE_WAIT_MS = 30;

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

const CSI_LETTERS: Record<string, string> = { A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end', Z: 'tab' };
const CSI_TILDE: Record<string, string> = { '1': 'home', '2': 'insert', '3': 'delete', '4': 'end', '5': 'pageup', '6': 'pagedown', '7': 'home', '8': 'end' };
const CODEPOINT_NAMES: Record<number, string> = { 9: 'tab', 13: 'return', 27: 'escape', 127: 'backspace' };

/**
 * Decodes raw terminal input: CSI and SS3 sequences (with xterm modifiers, modifyOtherKeys and
 * the kitty `CSI u` form, so Shift+Enter is seen where the terminal reports it), Alt as an ESC
 * prefix, control characters and bracketed paste. A paste can span several chunks; it comes out
 * as one `paste` key so its newlines never submit the input.
 */
export class KeyParser {
  private paste: string | undefined;
  /** The start of an escape sequence cut off at the end of a chunk, waiting for the rest. */
  private held = '';

  /** True when a lone ESC (or a cut sequence) waits: call `flush()` if nothing follows soon. */
  get pending(): boolean {
    return this.held !== '';
  }

  /** What was held, as keys: a lone ESC is the Escape key after all. */
  flush(): Key[] {
    const held = this.held;
    this.held = '';
    return held ? [{ name: 'escape' }, ...this.feed(held.slice(1))] : [];
  }

  feed(chunk: string): Key[] {
    const keys: Key[] = [];
    let rest = this.held + chunk;
    this.held = '';
    while (rest.length) {
      if (this.paste !== undefined) {
        const end = rest.indexOf(PASTE_END);
        if (end < 0) {
          this.paste += rest;
          return keys;
        }
        keys.push({ name: 'paste', text: this.paste + rest.slice(0, end) });
        this.paste = undefined;
        rest = rest.slice(end + PASTE_END.length);
        continue;
      }
      if (rest.startsWith(PASTE_START)) {
        this.paste = '';
        rest = rest.slice(PASTE_START.length);
        continue;
      }
      if (this.paste === undefined && isCutSequence(rest)) {
        this.held = rest;
        return keys;
      }
      const [key, used] = decodeOne(rest);
      keys.push(key);
      rest = rest.slice(used);
    }
    return keys;
  }
}

/** ESC alone, or ESC [ with parameters but no final byte yet: more bytes may be on their way. */
function isCutSequence(input: string): boolean {
  return input === '\x1b' || /^\x1b\[[0-9;:?]*$/.test(input) || /^\x1bO$/.test(input) || (input.length < PASTE_START.length && PASTE_START.startsWith(input) && input.length > 1);
}

function decodeOne(input: string): [Key, number] {
  const first = input[0]!;
  if (first === '\x1b') {
    if (input.length === 1) return [{ name: 'escape' }, 1];
    const second = input[1]!;
    if (second === '[') return decodeCsi(input);
    if (second === 'O' && input.length >= 3) return [{ name: CSI_LETTERS[input[2]!] ?? 'unknown' }, 3];
    if (second === '\x1b') return [{ name: 'escape' }, 1];
    const [inner, used] = decodeOne(input.slice(1));
    return [{ ...inner, meta: true }, used + 1];
  }
  const code = first.codePointAt(0)!;
  if (first === '\r') return [{ name: 'return' }, 1];
  if (first === '\n') return [{ name: 'enter', ctrl: true }, 1];
  if (first === '\t') return [{ name: 'tab' }, 1];
  if (first === '\x7f' || first === '\b') return [{ name: 'backspace' }, 1];
  if (code === 0) return [{ name: 'space', ctrl: true }, 1];
  if (code < 0x20) return [{ name: String.fromCharCode(code + 96), ctrl: true }, 1];
  const ch = String.fromCodePoint(code);
  return [{ name: 'char', text: ch }, ch.length];
}

function decodeCsi(input: string): [Key, number] {
  const match = /^\x1b\[([0-9;:?]*)([ -/]*)([@-~])/.exec(input);
  if (!match) return [{ name: 'escape' }, 1];
  const [whole, params = '', , final] = match;
  const parts = params.split(';').map((part) => part.split(':')[0] ?? '');
  const modifiers = (index: number) => flags(Number(parts[index] ?? '1') || 1);
  if (final === '~') {
    // modifyOtherKeys: CSI 27 ; mod ; code ~
    if (parts[0] === '27') return [{ name: nameOfCodePoint(Number(parts[2])), ...modifiers(1), ...textOf(Number(parts[2])) }, whole.length];
    return [{ name: CSI_TILDE[parts[0] ?? ''] ?? 'unknown', ...modifiers(1) }, whole.length];
  }
  if (final === 'u') return [{ name: nameOfCodePoint(Number(parts[0])), ...modifiers(1), ...textOf(Number(parts[0])) }, whole.length];
  const name = CSI_LETTERS[final!];
  if (!name) return [{ name: 'unknown' }, whole.length];
  const key: Key = { name, ...modifiers(1) };
  if (final === 'Z') key.shift = true;
  return [key, whole.length];
}

function nameOfCodePoint(code: number): string {
  return CODEPOINT_NAMES[code] ?? (Number.isFinite(code) && code >= 32 ? 'char' : 'unknown');
}

function textOf(code: number): { text?: string } {
  return Number.isFinite(code) && code >= 32 && code !== 127 ? { text: String.fromCodePoint(code) } : {};
}

function flags(modifier: number): Pick<Key, 'shift' | 'meta' | 'ctrl'> {
  const bits = modifier - 1;
  const out: Pick<Key, 'shift' | 'meta' | 'ctrl'> = {};
  if (bits & 1) out.shift = true;
  if (bits & 2) out.meta = true;
  if (bits & 4) out.ctrl = true;
  return out;
}
