import { Lexer, type Tokens } from 'marked';
import type { Theme } from './theme.js';
import { truncateLine, visibleWidth, wrapLine } from './text-width.js';

type Align = 'left' | 'right' | 'center' | null;

/** The narrowest a column is squeezed to before rows are cut instead. */
const MIN_COLUMN = 6;

/**
 * A GFM table's source lines (header, delimiter row, body rows), parsed by marked, drawn as an
 * aligned table that fits `width` columns: with colour, box-drawing borders and a bold header;
 * without (NO_COLOR), plain pipes that still read as Markdown. Wide cells wrap inside their column;
 * a table too wide even so has its rows cut with "…". Undefined when the lines are not one table.
 */
export function renderMarkdownTable(lines: string[], theme: Theme, width: number, inline: (text: string) => string): string[] | undefined {
  const tokens = Lexer.lex(lines.join('\n'), { gfm: true }).filter((token) => token.type !== 'space');
  const table = tokens[0];
  if (tokens.length !== 1 || table?.type !== 'table') return undefined;
  const { header, rows, align } = table as Tokens.Table;
  const cells = [header, ...rows].map((row) => row.map((cell) => inline(cell.text)));
  const widths = fitColumns(
    header.map((_, column) => Math.max(1, ...cells.map((row) => visibleWidth(row[column] ?? '')))),
    width,
  );
  const box = theme.enabled;
  const edge = (left: string, join: string, right: string) => theme.dim(`${left}${widths.map((w) => '─'.repeat(w + 2)).join(join)}${right}`);
  const bar = box ? theme.dim('│') : '|';
  const out: string[] = [];
  if (box) out.push(edge('┌', '┬', '┐'));
  cells.forEach((row, index) => {
    out.push(...drawRow(row, widths, align, bar, index === 0 ? theme.bold : (text) => text));
    if (index === 0) out.push(box ? edge('├', '┼', '┤') : `|${widths.map((w, column) => delimiter(w, align[column] ?? null)).join('|')}|`);
  });
  if (box) out.push(edge('└', '┴', '┘'));
  return out.map((line) => (visibleWidth(line) > width ? truncateLine(line, width) : line));
}

/** A row of cells, each wrapped in its column; a row is as tall as its tallest cell. */
function drawRow(row: string[], widths: number[], align: Align[], bar: string, style: (text: string) => string): string[] {
  const wrapped = widths.map((w, column) => wrapLine(row[column] ?? '', w).map((part) => (visibleWidth(part) > w ? truncateLine(part, w) : part)));
  const height = Math.max(...wrapped.map((parts) => parts.length));
  const lines: string[] = [];
  for (let r = 0; r < height; r++) {
    const parts = widths.map((w, column) => ` ${pad(style(wrapped[column]![r] ?? ''), w, align[column] ?? null)} `);
    lines.push(`${bar}${parts.join(bar)}${bar}`);
  }
  return lines;
}

function pad(text: string, width: number, align: Align): string {
  const room = Math.max(0, width - visibleWidth(text));
  if (align === 'right') return ' '.repeat(room) + text;
  if (align === 'center') return ' '.repeat(Math.floor(room / 2)) + text + ' '.repeat(Math.ceil(room / 2));
  return text + ' '.repeat(room);
}

function delimiter(width: number, align: Align): string {
  const dashes = '-'.repeat(width);
  if (align === 'left') return `:${dashes}-`;
  if (align === 'right') return `-${dashes}:`;
  if (align === 'center') return `:${dashes}:`;
  return `-${dashes}-`;
}

/**
 * Column widths that fit `width` (each column costs 3 more for its padding and border, plus one
 * for the last border): the widest column gives up a column at a time until the table fits or
 * every column is at the minimum.
 */
export function fitColumns(natural: number[], width: number): number[] {
  const widths = [...natural];
  const total = () => widths.reduce((sum, w) => sum + w + 3, 1);
  while (total() > width) {
    let widest = 0;
    for (let i = 1; i < widths.length; i++) if (widths[i]! > widths[widest]!) widest = i;
    if (widths[widest]! <= MIN_COLUMN) break;
    widths[widest]!--;
  }
  return widths;
}
