import { diffLines } from 'diff';
import { DIFF_BOUNDS } from '../tools/coding/shared/diff-bounds.js';

/**
 * Where each line of `before` is in `after` (1-based): an error that only moved because lines
 * were inserted or removed above it maps onto its new line. A removed line maps to where the
 * removal happened.
 */
export function lineMap(before: string, after: string): (line: number) => number {
  const moved: number[] = [0];
  let newLine = 1;
  // Too different to compare in time: lines are taken to stay where they were.
  for (const part of diffLines(before, after, DIFF_BOUNDS) ?? []) {
    const count = part.count ?? 0;
    if (part.added) {
      newLine += count;
      continue;
    }
    for (let i = 0; i < count; i++) moved.push(part.removed ? newLine : newLine + i);
    if (!part.removed) newLine += count;
  }
  return (line) => moved[line] ?? line + (newLine - moved.length);
}
