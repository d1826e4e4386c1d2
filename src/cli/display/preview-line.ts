import { charWidth, truncateLine } from './text-width.js';

const TAB_STOP = 4;

/**
 * One line of a result as a preview: unlike `oneLine`, the indentation stays (code is read by its
 * indentation), tabs become spaces up to the next 4-column stop, and the line is cut to `max`
 * columns. Control characters must already be written out (visibleText).
 */
export function previewLine(line: string, max: number): string {
  return truncateLine(expandTabs(line).trimEnd(), Math.max(1, max));
}

export function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  let column = 0;
  for (const ch of line) {
    if (ch === '\t') {
      const spaces = TAB_STOP - (column % TAB_STOP);
      out += ' '.repeat(spaces);
      column += spaces;
    } else {
      out += ch;
      column += charWidth(ch.codePointAt(0)!);
    }
  }
  return out;
}
