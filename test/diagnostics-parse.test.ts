import { describe, expect, it } from 'vitest';
import { diffDiagnostics } from '../src/diagnostics/diff-diagnostics.js';
import type { Diagnostic } from '../src/diagnostics/diagnostic.js';
import { formatDiagnosticChange } from '../src/diagnostics/format-diagnostics.js';
import { lineMap } from '../src/diagnostics/line-map.js';
import { parseDiagnostics } from '../src/diagnostics/parse-diagnostics.js';

const ws = '/work/project';

describe('reading each checker\'s output', () => {
  it('tsc lines, skipping its indented continuation lines', () => {
    const out = "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\n  The expected type comes from here.\nsrc/b.ts(10,1): error TS1005: ';' expected.\n";
    expect(parseDiagnostics('tsc', out, ws)).toEqual([
      { file: 'src/a.ts', line: 3, column: 7, severity: 'error', code: 'TS2322', message: "Type 'string' is not assignable to type 'number'." },
      { file: 'src/b.ts', line: 10, column: 1, severity: 'error', code: 'TS1005', message: "';' expected." },
    ]);
  });

  it("eslint's JSON, absolute paths made relative to the workspace", () => {
    const out = JSON.stringify([{ filePath: `${ws}/src/a.js`, messages: [{ line: 2, column: 5, ruleId: 'no-unused-vars', message: "'x' is defined but never used.", severity: 2 }, { line: 4, column: 1, ruleId: 'semi', message: 'Missing semicolon.', severity: 1 }] }]);
    expect(parseDiagnostics('eslint-json', out, ws)).toEqual([
      { file: 'src/a.js', line: 2, column: 5, code: 'no-unused-vars', message: "'x' is defined but never used.", severity: 'error' },
      { file: 'src/a.js', line: 4, column: 1, code: 'semi', message: 'Missing semicolon.', severity: 'warning' },
    ]);
  });

  it("ruff's JSON", () => {
    const out = JSON.stringify([{ filename: `${ws}/app/main.py`, location: { row: 1, column: 8 }, code: 'F401', message: '`os` imported but unused' }]);
    expect(parseDiagnostics('ruff-json', out, ws)).toEqual([{ file: 'app/main.py', line: 1, column: 8, code: 'F401', message: '`os` imported but unused', severity: 'error' }]);
  });

  it('go vet (file:line:col lines, package headers skipped) and unreadable JSON as nothing', () => {
    const out = '# example.com/app\n# [example.com/app]\n./main.go:9:2: fmt.Printf format %d has arg s of wrong type string\nvet: exit status 1\n';
    expect(parseDiagnostics('lines', out, ws, ws)).toEqual([{ file: 'main.go', line: 9, column: 2, severity: 'error', code: '', message: 'fmt.Printf format %d has arg s of wrong type string' }]);
    expect(parseDiagnostics('eslint-json', 'Oops! Something went wrong', ws)).toEqual([]);
  });
});

function d(line: number, message = 'boom', file = 'a.ts'): Diagnostic {
  return { file, line, column: 1, code: 'X1', message, severity: 'error' };
}

describe('before against after', () => {
  it('an error that only moved down because lines were inserted above is not new', () => {
    const before = 'a\nb\nbad\n';
    const after = 'new1\nnew2\na\nb\nbad\n';
    const change = diffDiagnostics([d(3)], [d(5)], { file: 'a.ts', moveLine: lineMap(before, after) });
    expect(change).toEqual({ introduced: [], fixed: [] });
  });

  it('of two identical messages, the one at a new place is the new one', () => {
    const before = 'x\nbad\ny\n';
    const after = 'x\nbad\ny\nbad\n';
    const change = diffDiagnostics([d(2)], [d(2), d(4)], { file: 'a.ts', moveLine: lineMap(before, after) });
    expect(change.introduced).toEqual([d(4)]);
    expect(change.fixed).toEqual([]);
  });

  it('a fix in one file and a break in another are both told, with the text capped', () => {
    const change = diffDiagnostics([d(1, 'old', 'a.ts')], [d(7, 'new', 'b.ts')]);
    expect(change).toEqual({ introduced: [d(7, 'new', 'b.ts')], fixed: [d(1, 'old', 'a.ts')] });
    const many = Array.from({ length: 25 }, (_, i) => d(i + 1, `m${i}`));
    const text = formatDiagnosticChange('tsc', { introduced: many, fixed: [] }, 30)!;
    expect(text.split('\n')).toHaveLength(1 + 10 + 1 + 1);
    expect(text).toContain('… and 15 more');
    expect(formatDiagnosticChange('tsc', { introduced: [], fixed: [] }, 3)).toBeUndefined();
  });
});
