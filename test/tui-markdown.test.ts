import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodeHighlighter, languageOf } from '../src/cli/tui/highlight.js';
import { MarkdownStream, renderInline } from '../src/cli/tui/markdown-stream.js';
import { stripAnsi, truncateLine, visibleWidth, wrapLine } from '../src/cli/display/text-width.js';
import { createTheme } from '../src/cli/display/theme.js';

const color = createTheme(true);
const plain = createTheme(false);

/** Streams `chunks` and returns every final line, as rendered (with escapes). */
function renderChunks(chunks: string[], theme = color): string[] {
  const stream = new MarkdownStream(theme);
  const lines: string[] = [];
  for (const chunk of chunks) lines.push(...stream.push(chunk));
  lines.push(...stream.end());
  return lines;
}

const SAMPLE = [
  '# Plan',
  '',
  'Some **bold**, *italic*, `inline code` and a [link](https://example.com).',
  '> a quoted line',
  '- first',
  '  - nested',
  '1. numbered',
  '---',
  '```ts',
  '/* a block',
  '   comment */ const answer = 42; // the answer',
  'let s = "a string";',
  '```',
  'done_with_snake_case here',
].join('\n');

describe('MarkdownStream', () => {
  it('renders headings, emphasis, code spans, links, quotes, lists, rules and fences', () => {
    const lines = renderChunks([SAMPLE]).map(stripAnsi);
    expect(lines).toEqual([
      'Plan',
      '',
      'Some bold, italic, inline code and a link (https://example.com).',
      '│ a quoted line',
      '• first',
      '  • nested',
      '1. numbered',
      '─'.repeat(40),
      '╭── ts',
      '│ /* a block',
      '│    comment */ const answer = 42; // the answer',
      '│ let s = "a string";',
      '╰──',
      'done_with_snake_case here',
    ]);
  });

  it('gives the same output however the text is split into chunks', () => {
    const whole = renderChunks([SAMPLE]);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: SAMPLE.length }), { maxLength: 30 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const chunks: string[] = [];
        let last = 0;
        for (const point of points) {
          chunks.push(SAMPLE.slice(last, point));
          last = point;
        }
        chunks.push(SAMPLE.slice(last));
        expect(renderChunks(chunks)).toEqual(whole);
      }),
      { numRuns: 200 },
    );
  });

  it('completes lines as they arrive and shows only the partial line provisionally', () => {
    const stream = new MarkdownStream(plain);
    expect(stream.push('# Ti')).toEqual([]);
    expect(stream.partial()).toBe('Ti');
    expect(stream.push('tle\nThe **bo')).toEqual(['Title']);
    expect(stream.partial()).toBe('The **bo'); // not yet closed: shown as typed
    expect(stream.push('ld** end')).toEqual([]);
    expect(stream.partial()).toBe('The bold end');
    expect(stream.end()).toEqual(['The bold end']);
    expect(stream.partial()).toBeUndefined();
  });

  it('colours code inside fences by language and leaves unknown languages plain', () => {
    const lines = renderChunks(['```python\ndef f(): # note\n    return "x"\n```\n```weird\nif x\n```\n']);
    expect(lines[1]).toContain('\x1b[35mdef\x1b[39m'); // keyword
    expect(lines[1]).toContain('\x1b[90m# note\x1b[39m'); // comment
    expect(lines[2]).toContain('\x1b[32m"x"\x1b[39m'); // string
    expect(lines[5]).toBe(`${color.dim('│')} if x`);
  });

  it('writes no escape sequences at all with colour off (NO_COLOR)', () => {
    const lines = renderChunks([SAMPLE], plain);
    expect(lines.join('\n')).not.toContain('\x1b');
    expect(lines[2]).toBe('Some bold, italic, inline code and a link (https://example.com).');
  });

  it('keeps unclosed or intra-word markers as typed', () => {
    expect(renderInline('2 * 3 * 4 and snake_case_name and `open', plain)).toBe('2 * 3 * 4 and snake_case_name and `open');
  });
});

describe('CodeHighlighter', () => {
  it('knows common languages by their usual fence names', () => {
    expect(['ts', 'typescript', 'JS', 'python', 'bash', 'go', 'rust', 'json', 'c++'].map(languageOf)).toEqual(['ts', 'ts', 'js', 'py', 'sh', 'go', 'rust', 'json', 'c']);
    expect(languageOf('brainfuck')).toBeUndefined();
  });

  it('carries a block comment across lines', () => {
    const h = new CodeHighlighter('ts', color);
    h.line('/* start');
    expect(h.line('const inside = 1')).toBe(color.gray('const inside = 1'));
    expect(h.line('end */ const')).toBe(`${color.gray('end */')} ${color.magenta('const')}`);
  });
});

describe('wrapLine and truncateLine', () => {
  it('wraps at spaces to the width and re-opens styles on the next row', () => {
    const rows = wrapLine(`plain ${color.bold('bold words that wrap')} tail`, 12);
    expect(rows.map(stripAnsi)).toEqual(['plain bold', 'words that', 'wrap tail']);
    expect(rows[1]!.startsWith('\x1b[1m')).toBe(true);
    expect(rows.every((row) => visibleWidth(row) <= 12)).toBe(true);
  });

  it('cuts words longer than the width and counts wide characters as two columns', () => {
    expect(wrapLine('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(visibleWidth('日本語')).toBe(6);
    expect(wrapLine('日本語です', 4).map(visibleWidth)).toEqual([4, 4, 2]);
  });

  it('never produces a row wider than the width', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.integer({ min: 1, max: 30 }), (text, width) => {
        const line = text.replace(/[\x00-\x1f\x7f]/g, '');
        for (const row of wrapLine(line, width)) expect(visibleWidth(row)).toBeLessThanOrEqual(width);
      }),
    );
  });

  it('truncates with an ellipsis and closes open styles', () => {
    const cut = truncateLine(color.red('a long red line'), 6);
    expect(stripAnsi(cut)).toBe('a lon…');
    expect(cut.endsWith('\x1b[0m')).toBe(true);
    expect(truncateLine('short', 10)).toBe('short');
  });
});
