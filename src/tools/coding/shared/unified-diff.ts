import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from 'diff';
import { DIFF_BOUNDS } from './diff-bounds.js';

/**
 * A unified diff of two versions of one file, with `context` lines around each change; '' when equal.
 * Only the span between the common prefix and suffix lines (plus context) is handed to the diff
 * algorithm: an edit of a 100,000-line file then costs the size of the edit, not of the file.
 */
export function unifiedDiff(path: string, before: string, after: string, context = 3): string {
  if (before === after) return '';
  const { start, endBefore, endAfter } = changedSpan(before, after, context);
  const oldSpan = before.slice(start, endBefore);
  const newSpan = after.slice(start, endAfter);
  const patch = structuredPatch(`a/${path}`, `b/${path}`, oldSpan, newSpan, undefined, undefined, { context, ...DIFF_BOUNDS });
  const skipped = countNewlines(before, start);
  if (!patch) {
    // Too many changed lines to compare in time: the region is described, not diffed.
    const oldLines = countNewlines(oldSpan, oldSpan.length) + (oldSpan.endsWith('\n') || oldSpan === '' ? 0 : 1);
    const newLines = countNewlines(newSpan, newSpan.length) + (newSpan.endsWith('\n') || newSpan === '' ? 0 : 1);
    return `--- a/${path}\n+++ b/${path}\n@@ -${skipped + 1},${oldLines} +${skipped + 1},${newLines} @@ more than ${DIFF_BOUNDS.maxEditLength} lines differ: the ${oldLines} lines from line ${skipped + 1} are replaced by ${newLines} (not compared line by line)\n`;
  }
  for (const hunk of patch.hunks) {
    hunk.oldStart += skipped;
    hunk.newStart += skipped;
  }
  return formatPatch(patch, FILE_HEADERS_ONLY);
}

/** Line-aligned bounds of the region that differs, widened by `context` lines on each side. */
function changedSpan(before: string, after: string, context: number): { start: number; endBefore: number; endAfter: number } {
  const shorter = Math.min(before.length, after.length);
  let prefix = 0;
  while (prefix < shorter && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  let start = lineStartOf(before, prefix);
  for (let i = 0; i < context && start > 0; i++) start = lineStartOf(before, start - 1);

  let suffix = 0;
  while (suffix < shorter - start && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) suffix++;
  // The first line start strictly inside the common suffix: there, both texts are at a line start.
  const newline = before.indexOf('\n', before.length - suffix);
  let end = newline === -1 ? before.length : newline + 1;
  for (let i = 0; i < context && end < before.length; i++) {
    const next = before.indexOf('\n', end);
    end = next === -1 ? before.length : next + 1;
  }
  return { start, endBefore: end, endAfter: end + after.length - before.length };
}

/** Start of the line holding index `i` (lastIndexOf with a negative start would still look at index 0). */
function lineStartOf(text: string, i: number): number {
  return i <= 0 ? 0 : text.lastIndexOf('\n', i - 1) + 1;
}

function countNewlines(text: string, end: number): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) count++;
  return count;
}
