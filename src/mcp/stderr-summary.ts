// What marks a failing line (npm's "npm error …", "ERR!", "Error:", "fatal") and what names a cause.
const ERROR = /\berror\b|ERR!|\bfatal\b/i;
const NOT_FOUND = /not found/i;
const CAUSE = /\b(?:E?404|ENOENT|EACCES)\b/i;
const MAX_LINES = 3;

/**
 * What a server wrote to stderr, cut to a few lines for a failure message, the failing line first:
 * a failing `npx` prints pages of notices before its "npm error 404 Not Found". Ranked: an error
 * line that says "not found", one with a code (404, ENOENT), any other error line, a warning that
 * says "not found"; the last lines only when no line says any of that.
 */
export function stderrSummary(tail: string): string {
  const lines = [...new Set(tail.split('\n').map((line) => line.trim()).filter((line) => line !== ''))];
  const rank = (line: string): number => {
    const error = ERROR.test(line);
    if (error && NOT_FOUND.test(line)) return 0;
    if (error && CAUSE.test(line)) return 1;
    if (error) return 2;
    return NOT_FOUND.test(line) || CAUSE.test(line) ? 3 : 4;
  };
  const chosen = lines.map((line) => ({ line, rank: rank(line) })).filter(({ rank }) => rank < 4);
  if (!chosen.length) return lines.slice(-MAX_LINES).join(' | ');
  return chosen.sort((a, b) => a.rank - b.rank).slice(0, MAX_LINES).map(({ line }) => line).join(' | ');
}
