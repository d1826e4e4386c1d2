import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MarkdownStream } from '../src/cli/tui/markdown-stream.js';
import { fitColumns } from '../src/cli/display/markdown-table.js';
import { stripAnsi, visibleWidth } from '../src/cli/display/text-width.js';
import { createTheme } from '../src/cli/display/theme.js';

const color = createTheme(true);
const plain = createTheme(false);

function render(text: string, width: number, theme = color, chunks: string[] = [text]): string[] {
  const stream = new MarkdownStream(theme, () => width);
  const lines: string[] = [];
  for (const chunk of chunks) lines.push(...stream.push(chunk));
  lines.push(...stream.end());
  return lines;
}

const TABLE = ['Files:', '', '| Name | Size | Notes |', '|:-----|-----:|:-----:|', '| `a.ts` | 12 | **short** |', '| b.md | 3400 | x |', '', 'After.'].join('\n');
const LONG_NOTE = 'a much longer note that goes on and on, far past what a narrow terminal can show on one row';

describe('Markdown tables', () => {
  it('draws a table aligned, with borders, its header bold and each column aligned as the delimiter row says', () => {
    const lines = render(TABLE, 80);
    expect(lines.map(stripAnsi)).toEqual([
      'Files:',
      '',
      '┌──────┬──────┬───────┐',
      '│ Name │ Size │ Notes │',
      '├──────┼──────┼───────┤',
      '│ a.ts │   12 │ short │',
      '│ b.md │ 3400 │   x   │',
      '└──────┴──────┴───────┘',
      '',
      'After.',
    ]);
    expect(lines[3]).toContain('\x1b[1mName\x1b[22m');
    // Cells get the same inline rendering as a paragraph: code spans and bold.
    expect(lines[5]).toContain('\x1b[33ma.ts\x1b[39m');
    expect(lines[5]).toContain('\x1b[1mshort\x1b[22m');
  });

  it('without colour (NO_COLOR) draws plain pipes that are still a Markdown table', () => {
    expect(render(TABLE, 80, plain)).toEqual(['Files:', '', '| Name | Size | Notes |', '|:-----|-----:|:-----:|', '| a.ts |   12 | short |', '| b.md | 3400 |   x   |', '', 'After.']);
  });

  it('wraps a wide cell inside its column so no row passes the width, and loses none of its words', () => {
    const lines = render(`| file | note |\n|---|---|\n| a.ts | ${LONG_NOTE} |\n`, 40).map(stripAnsi);
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(40);
    // Every row of the table has its borders in the same columns.
    const bars = (line: string) => [...line].flatMap((ch, i) => ('│┼┬┴├┤┌┐└┘'.includes(ch) ? [i] : []));
    for (const line of lines) expect(bars(line)).toEqual(bars(lines[0]!));
    const noteColumn = lines.slice(3, -1).map((line) => line.split('│')[2]!.trim()).join(' ');
    expect(noteColumn).toBe(LONG_NOTE);
  });

  it('cuts rows with "…" when even squeezed columns cannot fit', () => {
    const header = Array.from({ length: 12 }, (_, i) => `column${i}`);
    const lines = render(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|\n| ${header.map(() => 'value').join(' | ')} |\n`, 50).map(stripAnsi);
    for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(50);
    expect(lines.some((line) => line.endsWith('…'))).toBe(true);
  });

  it('gives the same output however the text is split into chunks', () => {
    const whole = render(TABLE, 60);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: TABLE.length - 1 }), { maxLength: 8 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const chunks = [0, ...points].map((from, i) => TABLE.slice(from, points[i] ?? TABLE.length));
        expect(render(TABLE, 60, color, chunks)).toEqual(whole);
      }),
    );
  });

  it('leaves a line with a pipe that starts no table as it was, and a table inside a code fence untouched', () => {
    expect(render('a | b is a pipe\nnext line\n', 80, plain)).toEqual(['a | b is a pipe', 'next line']);
    const fenced = render('```\n| a | b |\n|---|---|\n| 1 | 2 |\n```\n', 80).map(stripAnsi);
    expect(fenced).toEqual(['╭──', '│ | a | b |', '│ |---|---|', '│ | 1 | 2 |', '╰──']);
  });

  it('shows the rows while the table streams, then draws it once it ends', () => {
    const stream = new MarkdownStream(color, () => 80);
    expect(stream.push('| a | b |\n|---|---|\n| 1 | 2 |\n| 3 |')).toEqual([]);
    expect(stripAnsi(stream.partial()!).split('\n')).toEqual(['┌───┬───┐', '│ a │ b │', '├───┼───┤', '│ 1 │ 2 │', '│ 3 │   │', '└───┴───┘']);
    expect(stream.push(' 4 |\ndone\n').map(stripAnsi)).toEqual(['┌───┬───┐', '│ a │ b │', '├───┼───┤', '│ 1 │ 2 │', '│ 3 │ 4 │', '└───┴───┘', 'done']);
  });

  it('squeezes the widest column first and never below the minimum', () => {
    expect(fitColumns([4, 30, 10], 40)).toEqual([4, 16, 10]);
    expect(fitColumns([20, 20], 10)).toEqual([6, 6]);
  });
});
