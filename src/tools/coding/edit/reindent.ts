export function leadingWhitespace(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? '';
}

const onlyOf = (text: string, char: string) => text.length > 0 && [...text].every((c) => c === char);

/**
 * Re-indents `lines` (the model's new_string) from the model's base indentation `from` (that of its
 * old_string) to the file's `to`, keeping the relative indentation of every line. Converts between
 * tabs and spaces when that is the difference.
 */
export function reindentLines(lines: readonly string[], from: string, to: string): string[] {
  if (from === to) return [...lines];
  const map = indentMapper(from, to);
  return lines.map((line) => {
    if (line.trim() === '') return line;
    const indent = leadingWhitespace(line);
    return map(indent) + line.slice(indent.length);
  });
}

function indentMapper(from: string, to: string): (indent: string) => string {
  if (onlyOf(from, ' ') && onlyOf(to, '\t') && from.length % to.length === 0) {
    const width = from.length / to.length;
    return (indent) => {
      const spaces = indent.replaceAll('\t', ' '.repeat(width)).length;
      return '\t'.repeat(Math.floor(spaces / width)) + ' '.repeat(spaces % width);
    };
  }
  if (onlyOf(from, '\t') && onlyOf(to, ' ') && to.length % from.length === 0) {
    const width = to.length / from.length;
    return (indent) => indent.replaceAll('\t', ' '.repeat(width));
  }
  if (to.startsWith(from)) {
    const added = to.slice(from.length);
    return (indent) => added + indent;
  }
  if (from.startsWith(to)) {
    const removed = from.slice(to.length);
    return (indent) => (indent.startsWith(removed) ? indent.slice(removed.length) : '');
  }
  return (indent) => (indent.startsWith(from) ? to + indent.slice(from.length) : indent);
}
