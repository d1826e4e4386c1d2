import { describe, expect, it } from 'vitest';
import { comparePaths } from '../src/tools/coding/search/path-order.js';
import { PathHead } from '../src/tools/coding/search/path-head.js';

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => ((state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

/** Adds `items` half through add and half through addIn, the latter from inside NUL-joined text as ripgrep prints it. */
function fill(head: PathHead, items: readonly string[], next: () => number): void {
  for (let i = 0; i < items.length; ) {
    if (next() < 0.5) head.add(items[i++]!);
    else {
      const batch = items.slice(i, i + 1 + Math.floor(next() * 40));
      i += batch.length;
      const text = batch.join('\0');
      let start = 0;
      for (const item of batch) {
        head.addIn(text, start, start + item.length);
        start += item.length + 1;
      }
    }
  }
}

describe('PathHead', () => {
  it('keeps the head of the full sort in path order and counts everything, for any order, limit and duplicates', () => {
    const next = random(3);
    const names = ['a', 'a/b', 'a-c', 'A', 'é', 'z/y', 'b.ts', '😀', 'a/b/c', '_x', 'ｆ', 'a.b/c', 'a b'];
    for (let round = 0; round < 60; round++) {
      const items = Array.from({ length: Math.floor(next() * 600) }, () => `${names[Math.floor(next() * names.length)]}${Math.floor(next() * 50)}`);
      for (const limit of [0, 1, 2, 7, 50, 199, 1000]) {
        const head = new PathHead(limit);
        fill(head, items, next);
        expect(head.sorted()).toEqual([...items].sort(comparePaths).slice(0, limit));
        expect(head.total).toBe(items.length);
      }
    }
  });

  it('a long listing in any order: ascending, descending, folder by folder in shuffled folders, all equal', () => {
    const ascending = Array.from({ length: 5000 }, (_, i) => `src/p${i % 50}/m${Math.floor(i / 500)}/f${i}.ts`).sort(comparePaths);
    const next = random(9);
    const byFolder = new Map<string, string[]>();
    for (const path of ascending) {
      const folder = path.slice(0, path.lastIndexOf('/'));
      byFolder.set(folder, [...(byFolder.get(folder) ?? []), path]);
    }
    const shuffledFolders = [...byFolder.values()].sort(() => next() - 0.5).flat();
    for (const items of [ascending, [...ascending].reverse(), shuffledFolders, Array.from({ length: 3000 }, () => 'same')]) {
      const head = new PathHead(1000);
      fill(head, items, next);
      expect(head.sorted()).toEqual([...items].sort(comparePaths).slice(0, 1000));
      expect(head.total).toBe(items.length);
    }
  });

  it('sorted() can be asked again and after more paths', () => {
    const head = new PathHead(2);
    for (const path of ['c', 'b', 'e']) head.add(path);
    expect(head.sorted()).toEqual(['b', 'c']);
    head.add('a');
    expect(head.sorted()).toEqual(['a', 'b']);
    expect(head.sorted()).toEqual(['a', 'b']);
    expect(head.total).toBe(4);
  });
});
