/**
 * The `count` smallest strings in sorted order, as `[...items].sort().slice(0, count)` gives them,
 * without sorting them all: a listing of 100,000 paths shows its first thousand.
 */
export function sortedHead(items: readonly string[], count: number): string[] {
  if (count <= 0) return [];
  if (items.length <= 2 * count) return [...items].sort().slice(0, count);
  const kept: string[] = [];
  let bound: string | undefined;
  for (const item of items) {
    if (bound !== undefined && item > bound) continue;
    kept.push(item);
    if (kept.length === 2 * count) {
      kept.sort();
      kept.length = count;
      bound = kept[count - 1];
    }
  }
  kept.sort();
  kept.length = Math.min(kept.length, count);
  return kept;
}
