/**
 * Control and invisible characters a terminal would act on or hide: C0 (but tab and newline),
 * DEL, C1, soft hyphen, zero-width, line separators, bidirectional marks and overrides,
 * interlinear annotations, lone surrogates and tag characters. In an approval question they could make
 * `rm -rf ~ #\r\x1b[2Kls` look like `ls`, or reorder what is shown (Trojan Source).
 */
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufff9-\ufffb\u{d800}-\u{dfff}\u{e0000}-\u{e007f}]/gu;

/** The text with every such character written out as an escape (`\r`, `\e`, `\u{202e}`), so what is shown is what runs. */
export function visibleText(text: string): string {
  return text.replace(HIDDEN, (char) => {
    if (char === '\r') return '\\r';
    if (char === '\x1b') return '\\e';
    return `\\u{${char.codePointAt(0)!.toString(16).padStart(4, '0')}}`;
  });
}

/** A summary as lines: the first for the question, the rest (a multi-line command) below it. */
export function visibleLines(text: string): string[] {
  return visibleText(text).split('\n');
}

/** One value on one line: newlines and tabs written out too, so a value cannot draw a line of its own. */
export function visibleValue(text: string): string {
  return visibleText(text).replaceAll('\n', '\\n').replaceAll('\t', '\\t');
}
