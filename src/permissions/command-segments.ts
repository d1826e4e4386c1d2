/**
 * The segments of a shell command, split at every chaining or grouping operator, with no limit on
 * their number: a check that gave up past the fiftieth would let the fifty-first through.
 */
export function commandSegments(command: string): string[] {
  return command
    .trim()
    .split(/;|&&|\|\||\||&|\n|\$\(|`|<\(|>\(/)
    .map((segment) => segment.replace(/[()]/g, ' ').trim())
    .filter((segment) => segment !== '');
}
