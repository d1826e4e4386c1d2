import { describe, expect, it } from 'vitest';
import { findClosestRegion } from '../src/tools/coding/edit/closest-match.js';
import { applyEdit } from '../src/tools/coding/edit/edit-text.js';
import { countLines, toLogicalText, toStoredText } from '../src/tools/coding/shared/line-endings.js';
import { matchQuoteStyle } from '../src/tools/coding/edit/quotes.js';
import { reindentLines } from '../src/tools/coding/edit/reindent.js';

function edited(text: string, oldString: string, newString: string, replaceAll = false) {
  const outcome = applyEdit(text, { oldString, newString, replaceAll });
  if (!outcome.ok) throw new Error(`expected the edit to apply, got ${outcome.kind}`);
  return outcome;
}

describe('applyEdit: exact pass', () => {
  it('replaces the single occurrence and reports its line', () => {
    const outcome = edited('a\nb\nc\n', 'b\n', 'B\n');
    expect(outcome).toMatchObject({ text: 'a\nB\nc\n', replacements: 1, lines: [2], tolerances: [] });
  });

  it('refuses an ambiguous match, naming every line', () => {
    expect(applyEdit('x = 1\ny = 2\nx = 1\n', { oldString: 'x = 1', newString: 'x = 3' })).toEqual({
      ok: false,
      kind: 'ambiguous',
      lines: [1, 3],
      tolerances: [],
    });
  });

  it('replaces every occurrence with replaceAll', () => {
    expect(edited('foo foo\nfoo\n', 'foo', 'bar', true)).toMatchObject({ text: 'bar bar\nbar\n', replacements: 3, lines: [1, 1, 2] });
  });

  it('prefers the exact match over a tolerant one elsewhere', () => {
    const outcome = edited('  value  \nvalue\n', 'value\n', 'v\n');
    expect(outcome.tolerances).toEqual([]);
    expect(outcome.text).toBe('  value  \nv\n');
  });

  it('reports not found when nothing resembles old_string', () => {
    expect(applyEdit('alpha\n', { oldString: 'omega', newString: 'x' })).toEqual({ ok: false, kind: 'not_found' });
  });
});

describe('applyEdit: tolerant pass', () => {
  it('forgives trailing whitespace in the file', () => {
    const outcome = edited('if (a) {   \n  run();\t\n}\n', 'if (a) {\n  run();\n}', 'if (b) {\n  run();\n}');
    expect(outcome.tolerances).toEqual(['trailing_whitespace']);
    expect(outcome.text).toBe('if (b) {\n  run();\n}\n');
  });

  it('re-indents new_string when old_string lost the indentation', () => {
    const file = 'class A {\n    method() {\n        return 1;\n    }\n}\n';
    const outcome = edited(file, 'method() {\n    return 1;\n}', 'method() {\n    const x = 1;\n    return x;\n}');
    expect(outcome.tolerances).toEqual(['indentation']);
    expect(outcome.text).toBe('class A {\n    method() {\n        const x = 1;\n        return x;\n    }\n}\n');
  });

  it('re-indents from spaces to the tabs the file uses', () => {
    const file = 'func main() {\n\tif ok {\n\t\tgo()\n\t}\n}\n';
    const outcome = edited(file, '    if ok {\n        go()\n    }', '    if ok {\n        stop()\n    }');
    expect(outcome.tolerances).toEqual(['indentation']);
    expect(outcome.text).toBe('func main() {\n\tif ok {\n\t\tstop()\n\t}\n}\n');
  });

  it('matches straight quotes typed over curly ones and keeps the curly style', () => {
    const file = 'title: “Don’t panic”\n';
    const outcome = edited(file, 'title: "Don\'t panic"', 'title: "Don\'t worry"');
    expect(outcome.tolerances).toEqual(['quotes']);
    expect(outcome.text).toBe('title: “Don’t worry”\n');
  });

  it('straightens curly quotes the model typed over straight ones', () => {
    const outcome = edited('say("hi")\n', 'say(“hi”)', 'say(“hello”)');
    expect(outcome.text).toBe('say("hello")\n');
  });

  it('reports an ambiguous tolerant match with the tolerance used', () => {
    const outcome = applyEdit('x();  \ny\nx(); \n', { oldString: 'x();\n', newString: 'z();\n' });
    expect(outcome).toEqual({ ok: false, kind: 'ambiguous', lines: [1, 3], tolerances: ['trailing_whitespace'] });
  });

  it('keeps a missing final newline when old_string ended with one', () => {
    const outcome = edited('a\nlast  ', 'last\n', 'final\n');
    expect(outcome.text).toBe('a\nfinal');
  });

  it('removes line-number prefixes copied from read_file output', () => {
    const outcome = edited('a\n  b\nc\n', '     2\t  b\n     3\tc', '     2\t  B\n     3\tC');
    expect(outcome.tolerances).toEqual(['line_numbers']);
    expect(outcome.text).toBe('a\n  B\nC\n');
  });

  it('never matches a whitespace-only old_string tolerantly', () => {
    expect(applyEdit('a\n\n\nb\n', { oldString: '  \n  ', newString: 'x' })).toEqual({ ok: false, kind: 'not_found' });
  });
});

describe('helpers', () => {
  it('round-trips CRLF and BOM layouts', () => {
    const { text, layout } = toLogicalText('\uFEFFa\r\nb\r\n');
    expect(text).toBe('a\nb\n');
    expect(layout).toEqual({ bom: true, eol: 'crlf' });
    expect(toStoredText('a\nc\n', layout)).toBe('\uFEFFa\r\nc\r\n');
  });

  it('leaves mixed line endings untouched', () => {
    const { text, layout } = toLogicalText('a\r\nb\nc\r\n');
    expect(layout.eol).toBe('mixed');
    expect(toStoredText(text, layout)).toBe('a\r\nb\nc\r\n');
  });

  it('counts lines the way a person does', () => {
    expect([countLines(''), countLines('a'), countLines('a\n'), countLines('a\nb')]).toEqual([0, 1, 1, 2]);
  });

  it('re-indents relative to the base indentation', () => {
    expect(reindentLines(['if x:', '    y()', '', 'z()'], '', '        ')).toEqual(['        if x:', '            y()', '', '        z()']);
    expect(reindentLines(['        a', '            b'], '        ', '    ')).toEqual(['    a', '        b']);
  });

  it('curls quotes by position', () => {
    expect(matchQuoteStyle(`"it's" 'ok'`, '“x” ‘y’')).toBe('“it’s” ‘ok’');
  });

  it('finds the closest region by line similarity', () => {
    const file = ['import x', 'function add(a, b) {', '  return a + b;', '}', 'function sub(a, b) {', '  return a - b;', '}'].join('\n');
    const region = findClosestRegion(file, 'function sub(a, b) {\n  return a-b;\n}');
    expect(region?.firstLine).toBe(5);
    expect(region?.lines).toEqual(['function sub(a, b) {', '  return a - b;', '}']);
    expect(region?.similarity).toBeGreaterThan(0.8);
    expect(region?.similarity).toBeLessThan(1);
  });

  it('finds the closest region in a 100,000-line file', () => {
    const lines = Array.from({ length: 100_000 }, (_, i) => `const value${i} = compute(${i});`);
    const region = findClosestRegion(lines.join('\n'), 'const value77777 = compute(77770);\nconst value77778 = compute(77778);');
    expect(region?.firstLine).toBe(77_778);
  });
});
