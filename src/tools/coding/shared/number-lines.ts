/** `cat -n` style: the 1-based line number right-aligned in 6 columns, a tab, then the line. */
export function numberLine(lineNumber: number, line: string): string {
  return `${String(lineNumber).padStart(6)}\t${line}`;
}

/** Numbers `lines`, the first of which is line `firstLine` of the file. */
export function numberLines(lines: readonly string[], firstLine: number): string {
  return lines.map((line, i) => numberLine(firstLine + i, line)).join('\n');
}
