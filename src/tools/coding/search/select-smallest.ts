import { comparePaths } from './path-order.js';

/** Rounds of partitioning before the rest of the range is simply sorted (keeps an unlucky input from going quadratic). */
const MAX_ROUNDS = 64;

/** Cuts `a` to its `k` smallest paths in path order (in no order), by quickselect: a few comparisons per path. */
export function keepSmallest(a: string[], k: number): void {
  if (a.length <= k) return;
  let lo = 0;
  let hi = a.length - 1;
  // Everything in [lo, hi] comes before everything above hi: once that range ends at k, it is the answer.
  for (let round = 0; hi > lo && hi >= k; round++) {
    if (round === MAX_ROUNDS) {
      const rest = a.slice(lo, hi + 1).sort(comparePaths);
      for (let i = 0; i < rest.length; i++) a[lo + i] = rest[i]!;
      break;
    }
    // Random picks: the cuts of a listing meet runs in order and reversed, which fixed picks split badly.
    const pick = () => a[lo + Math.floor(Math.random() * (hi - lo + 1))]!;
    const pivot = medianOfThree(pick(), pick(), pick());
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
    else if (k <= more + 1) break;
    else lo = more + 1;
  }
  a.length = k;
}

function medianOfThree(a: string, b: string, c: string): string {
  if (comparePaths(a, b) < 0) return comparePaths(b, c) < 0 ? b : comparePaths(a, c) < 0 ? c : a;
  return comparePaths(a, c) < 0 ? a : comparePaths(b, c) < 0 ? c : b;
}
