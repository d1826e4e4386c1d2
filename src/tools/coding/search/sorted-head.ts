import { comparePaths } from './path-order.js';

/**
 * The `count` smallest paths in path order, as `[...items].sort(comparePaths).slice(0, count)` gives them,
 * without sorting them all: a listing of 100,000 paths shows its first thousand. A quickselect
 * puts the `count` smallest first (a few comparisons per item, whatever order ripgrep printed
 * them in), then only those are sorted.
 */
export function sortedHead(items: readonly string[], count: number): string[] {
  if (count <= 0) return [];
  const all = [...items];
  if (all.length <= count) return all.sort(comparePaths);
  selectSmallest(all, count);
  return all.slice(0, count).sort(comparePaths);
}

/** Rounds of partitioning before the rest of the range is simply sorted (keeps an unlucky input from going quadratic). */
const MAX_ROUNDS = 64;

/** Reorders `a` so that its first `k` items are its `k` smallest (in no order). */
function selectSmallest(a: string[], k: number): void {
  let lo = 0;
  let hi = a.length - 1;
  for (let round = 0; hi > lo; round++) {
    if (round === MAX_ROUNDS) {
      const rest = a.slice(lo, hi + 1).sort(comparePaths);
      for (let i = 0; i < rest.length; i++) a[lo + i] = rest[i]!;
      return;
    }
    const pivot = medianOfThree(a[lo]!, a[(lo + hi) >> 1]!, a[hi]!);
    // Three ways: [lo, less) below the pivot, [less, more] equal to it, (more, hi] above it.
    let less = lo;
    let more = hi;
    for (let i = lo; i <= more; ) {
      const item = a[i]!;
      const order = comparePaths(item, pivot);
      if (order < 0) {
        a[i++] = a[less]!;
        a[less++] = item;
      } else if (order > 0) {
        a[i] = a[more]!;
        a[more--] = item;
      } else i++;
    }
    if (k <= less) hi = less - 1;
    else if (k <= more + 1) return;
    else lo = more + 1;
  }
}

function medianOfThree(a: string, b: string, c: string): string {
  if (comparePaths(a, b) < 0) return comparePaths(b, c) < 0 ? b : comparePaths(a, c) < 0 ? c : a;
  return comparePaths(a, c) < 0 ? a : comparePaths(b, c) < 0 ? c : b;
}
