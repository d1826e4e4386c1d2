import { describe, expect, it } from 'vitest';
import { comparePaths } from '../src/tools/coding/search/path-order.js';
import { sortedHead } from '../src/tools/coding/search/sorted-head.js';

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => ((state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

describe('sortedHead', () => {
  it('is the head of the full sort in path order, for any order, count and duplicates', () => {
    const next = random(3);
    const names = ['a', 'a/b', 'a-c', 'A', 'é', 'z/y', 'b.ts', '😀', 'a/b/c', '_x'];
    for (let round = 0; round < 60; round++) {
      const items = Array.from({ length: Math.floor(next() * 400) }, () => `${names[Math.floor(next() * names.length)]}${Math.floor(next() * 50)}`);
      for (const count of [0, 1, 2, 7, 50, 199, 1000]) {
        expect(sortedHead(items, count)).toEqual([...items].sort(comparePaths).slice(0, count));
      }
    }
  });

  it('a long list in any order: ascending, descending, all equal', () => {
    const ascending = Array.from({ length: 5000 }, (_, i) => `src/p${String(i).padStart(5, '0')}.ts`);
    for (const items of [ascending, [...ascending].reverse(), Array.from({ length: 3000 }, () => 'same')]) {
      expect(sortedHead(items, 1000)).toEqual([...items].sort(comparePaths).slice(0, 1000));
    }
  });

  it('leaves its input as it was', () => {
    const items = ['c', 'b', 'a', 'e', 'd'];
    sortedHead(items, 2);
    expect(items).toEqual(['c', 'b', 'a', 'e', 'd']);
  });
});
