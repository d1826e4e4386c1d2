import type { Theme } from './theme.js';

/** A unified diff (a hunk header and an added or removed line), as edits show in results and approvals. */
export function looksLikeDiff(lines: string[]): boolean {
  return lines.some((line) => line.startsWith('@@ ')) && lines.some((line) => /^[+-](?![+-]{2} )/.test(line));
}

/** Additions green, removals red, hunk headers cyan, file headers bold, context dimmed. */
export function colourDiffLine(line: string, t: Theme): string {
  if (line.startsWith('+++') || line.startsWith('---')) return t.bold(line);
  if (line.startsWith('@@')) return t.cyan(line);
  if (line.startsWith('+')) return t.green(line);
  if (line.startsWith('-')) return t.red(line);
  return t.dim(line);
}
