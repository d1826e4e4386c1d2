/** Display width and wrapping of text that may carry ANSI SGR sequences. */

// CSI sequences (colours, cursor moves) and OSC sequences (titles, links).
const ANSI = /\x1b\[[0-9;:?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** Terminal columns a code point occupies: 0 for combining marks, 2 for wide CJK and emoji. */
export function charWidth(codePoint: number): number {
  if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0)) return 0;
  if ((codePoint >= 0x300 && codePoint <= 0x36f) || (codePoint >= 0x200b && codePoint <= 0x200f) || (codePoint >= 0xfe00 && codePoint <= 0xfe0f)) return 0;
  if (
    (codePoint >= 0x1100 && codePoint <= 0x115f) ||
    (codePoint >= 0x2e80 && codePoint <= 0xa4cf && codePoint !== 0x303f) ||
    (codePoint >= 0xac00 && codePoint <= 0xd7a3) ||
    (codePoint >= 0xf900 && codePoint <= 0xfaff) ||
    (codePoint >= 0xfe30 && codePoint <= 0xfe4f) ||
    (codePoint >= 0xff00 && codePoint <= 0xff60) ||
    (codePoint >= 0xffe0 && codePoint <= 0xffe6) ||
    (codePoint >= 0x1f300 && codePoint <= 0x1f64f) ||
    (codePoint >= 0x1f680 && codePoint <= 0x1f6ff) ||
    (codePoint >= 0x1f7e0 && codePoint <= 0x1f7eb) ||
    (codePoint >= 0x1f900 && codePoint <= 0x1f9ff) ||
    (codePoint >= 0x1fa70 && codePoint <= 0x1faff) ||
    (codePoint >= 0x1f200 && codePoint <= 0x1f251) ||
    (codePoint >= 0x20000 && codePoint <= 0x3fffd) ||
    WIDE_SYMBOLS.has(codePoint)
  ) {
    return 2;
  }
  return 1;
}

// Symbols below U+1F000 that are emoji by default (East Asian Width "W"): ✅ ❌ ⭐ ⚡ ⌛ …
const WIDE_SYMBOLS = new Set([
  0x231a, 0x231b, 0x23e9, 0x23ea, 0x23eb, 0x23ec, 0x23f0, 0x23f3, 0x25fd, 0x25fe, 0x2614, 0x2615,
  0x2648, 0x2649, 0x264a, 0x264b, 0x264c, 0x264d, 0x264e, 0x264f, 0x2650, 0x2651, 0x2652, 0x2653,
  0x267f, 0x2693, 0x26a1, 0x26aa, 0x26ab, 0x26bd, 0x26be, 0x26c4, 0x26c5, 0x26ce, 0x26d4, 0x26ea,
  0x26f2, 0x26f3, 0x26f5, 0x26fa, 0x26fd, 0x2705, 0x270a, 0x270b, 0x2728, 0x274c, 0x274e, 0x2753,
  0x2754, 0x2755, 0x2757, 0x2795, 0x2796, 0x2797, 0x27b0, 0x27bf, 0x2b1b, 0x2b1c, 0x2b50, 0x2b55,
  0x1f004, 0x1f0cf, 0x1f18e, 0x1f191, 0x1f192, 0x1f193, 0x1f194, 0x1f195, 0x1f196, 0x1f197, 0x1f198,
  0x1f199, 0x1f19a,
]);

export function visibleWidth(text: string): number {
  let width = 0;
  for (const ch of stripAnsi(text)) width += charWidth(ch.codePointAt(0)!);
  return width;
}

type Token = { escape: string } | { char: string; width: number };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let last = 0;
  for (const match of text.matchAll(ANSI)) {
    for (const ch of text.slice(last, match.index)) tokens.push({ char: ch, width: charWidth(ch.codePointAt(0)!) });
    tokens.push({ escape: match[0] });
    last = match.index + match[0].length;
  }
  for (const ch of text.slice(last)) tokens.push({ char: ch, width: charWidth(ch.codePointAt(0)!) });
  return tokens;
}

const RESET = '\x1b[0m';
const isReset = (escape: string) => escape === '\x1b[0m' || escape === '\x1b[m';
const isSgr = (escape: string) => escape.endsWith('m') && escape.startsWith('\x1b[');

// What each closing SGR code ends: bold/dim, italic, underline, foreground, background.
const CLOSES: Record<string, RegExp> = { '22': /^(1|2)$/, '23': /^3$/, '24': /^4$/, '39': /^(3[0-7]|9[0-7]|38;.*)$/, '49': /^(4[0-7]|10[0-7]|48;.*)$/ };

/**
 * The styles still open after `escape`: a closing code removes what it closes instead of being
 * kept, so the state carried from row to row stays as small as the styles actually open.
 */
function applySgr(state: string[], escape: string): string[] {
  if (isReset(escape)) return [];
  const closes = CLOSES[escape.slice(2, -1)];
  if (!closes) return [...state, escape];
  return state.filter((open) => !closes.test(open.slice(2, -1)));
}

/**
 * Word-wraps one line to `width` columns. Styles open at a break are closed at the end of the
 * row and reopened on the next, so every row can be redrawn on its own.
 */
export function wrapLine(line: string, width: number): string[] {
  const max = Math.max(1, width);
  if (visibleWidth(line) <= max) return [line];
  const rows: string[] = [];
  let row: Token[] = [];
  let rowWidth = 0;
  let breakAt = -1;

  const activeAt = (tokens: Token[], upTo: number, start: string[]) => {
    let state = [...start];
    for (let i = 0; i < upTo; i++) {
      const token = tokens[i]!;
      if ('escape' in token && isSgr(token.escape)) state = applySgr(state, token.escape);
    }
    return state;
  };
  let rowStart: string[] = [];

  const flush = (cut: number, skip: number) => {
    const head = row.slice(0, cut);
    const styles = activeAt(row, cut, rowStart);
    rows.push(rowStart.join('') + head.map((t) => ('escape' in t ? t.escape : t.char)).join('') + (styles.length ? RESET : ''));
    row = row.slice(cut + skip);
    rowStart = styles;
    rowWidth = row.reduce((sum, t) => sum + ('width' in t ? t.width : 0), 0);
    breakAt = -1;
  };

  for (const token of tokenize(line)) {
    if ('escape' in token) {
      row.push(token);
      continue;
    }
    if (rowWidth + token.width > max) {
      if (token.char === ' ') {
        flush(row.length, 0);
        continue;
      }
      if (breakAt > 0) flush(breakAt, 1);
      if (rowWidth + token.width > max) flush(row.length, 0);
    }
    if (token.char === ' ') breakAt = row.length;
    row.push(token);
    rowWidth += token.width;
  }
  if (row.length || rows.length === 0) rows.push(rowStart.join('') + row.map((t) => ('escape' in t ? t.escape : t.char)).join(''));
  return rows;
}

/** Cuts a line to `width` columns, ending with "…" when something was cut. */
export function truncateLine(line: string, width: number): string {
  if (visibleWidth(line) <= width) return line;
  let out = '';
  let used = 0;
  let styled = false;
  for (const token of tokenize(line)) {
    if ('escape' in token) {
      out += token.escape;
      styled = styled || (isSgr(token.escape) && !isReset(token.escape));
      continue;
    }
    if (used + token.width > width - 1) break;
    out += token.char;
    used += token.width;
  }
  return `${out}…${styled ? RESET : ''}`;
}
