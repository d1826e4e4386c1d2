import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineMap } from '../src/diagnostics/line-map.js';
import { DIFF_BOUNDS } from '../src/tools/coding/shared/diff-bounds.js';
import { unifiedDiff } from '../src/tools/coding/shared/unified-diff.js';

/** `bytes` of lines that share nothing with another call's: the worst case for a line diff. */
function randomLines(bytes: number): string {
  return randomBytes(Math.ceil((bytes * 3) / 4)).toString('base64').replace(/(.{1,60})/g, '$1\n');
}

describe('line diffs of large, different texts end', () => {
  it('a 10 MB overwrite of a different 10 MB file is described, not diffed, in bounded time', () => {
    const before = randomLines(10 * 1024 * 1024);
    const after = randomLines(10 * 1024 * 1024);
    const started = performance.now();
    const diff = unifiedDiff('big.txt', before, after);
    // Bounded, not fast: the work around the diff's own 2 s limit (splitting 20 MB into lines) took
    // 4–5 s at load 10 on 2 cores; unbounded, it took minutes.
    expect(performance.now() - started).toBeLessThan(DIFF_BOUNDS.timeout + 20_000);
    expect(diff).toMatch(/^--- a\/big\.txt\n\+\+\+ b\/big\.txt\n@@ -1,\d+ \+1,\d+ @@ more than 2000 lines differ: the \d+ lines from line 1 are replaced by \d+ \(not compared line by line\)\n$/);
    const map = lineMap(before, after);
    expect(map(1234)).toBe(1234);
  }, 60_000);

  it('property: any mix of kept and changed lines gives a diff (or its description) without throwing', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: 0, max: 5_000 }), (kept, changedBefore, changedAfter) => {
        const common = randomLines(kept * 40);
        const before = `${common}${randomLines(changedBefore * 40)}`;
        const after = `${common}${randomLines(changedAfter * 40)}`;
        const diff = unifiedDiff('f.txt', before, after);
        if (before === after) expect(diff).toBe('');
        else expect(diff.startsWith('--- a/f.txt\n+++ b/f.txt\n@@ ')).toBe(true);
      }),
      { numRuns: 15 },
    );
  }, 120_000);

  it('a small edit of a large file is still diffed line by line', () => {
    const before = randomLines(2 * 1024 * 1024);
    const lines = before.split('\n');
    lines[500] = 'changed';
    expect(unifiedDiff('f.txt', before, lines.join('\n'))).toContain('\n+changed\n');
  });
});
