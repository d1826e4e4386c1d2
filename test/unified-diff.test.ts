import { applyPatch, createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../src/tools/coding/shared/unified-diff.js';

const fullDiff = (before: string, after: string) =>
  createTwoFilesPatch('a/f', 'b/f', before, after, undefined, undefined, { context: 3, headerOptions: FILE_HEADERS_ONLY });

// Few distinct lines, so texts share prefixes, suffixes and repeated lines: the hard cases.
const text = fc.array(fc.constantFrom('a', 'b', 'c', '', ' a', 'a\r'), { maxLength: 30 }).chain((lines) =>
  fc.boolean().map((finalNewline) => lines.join('\n') + (finalNewline && lines.length ? '\n' : '')),
);

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('f', 'same\n', 'same\n')).toBe('');
  });

  it('numbers hunks by their place in the whole file', () => {
    const before = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const after = before.replace('line 30\n', 'line thirty\n');
    expect(unifiedDiff('f', before, after)).toBe(fullDiff(before, after));
    expect(unifiedDiff('f', before, after)).toContain('@@ -27,7 +27,7 @@');
  });

  it('always produces a patch that turns before into after', () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        const patch = unifiedDiff('f', before, after);
        if (before === after) return patch === '';
        return applyPatch(before, patch) === after;
      }),
      { numRuns: 2000 },
    );
  });

  it('matches the whole-file diff when one region of distinct lines changed', () => {
    // With repeated lines several diffs are equally right; distinct lines make the answer unique.
    const lines = (prefix: string) => fc.nat({ max: 12 }).map((n) => Array.from({ length: n }, (_, i) => `${prefix}${i}\n`).join(''));
    fc.assert(
      fc.property(lines('head'), lines('old'), lines('new'), lines('tail'), fc.boolean(), (head, old, replacement, tail, cut) => {
        const end = cut ? tail.replace(/\n$/, '') : tail;
        const before = head + old + end;
        const after = head + replacement + end;
        return unifiedDiff('f', before, after) === (before === after ? '' : fullDiff(before, after));
      }),
      { numRuns: 1000 },
    );
  });
});
