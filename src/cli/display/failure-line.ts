/**
 * The line of a failed command's output that says what failed. Test runners end with a summary
 * ("# duration_ms 207.02", "Duration 1.2s", "npm error command failed") that names no failure,
 * so the first line a runner marks as failed wins: TAP's `not ok` (with its YAML `error:` text),
 * vitest's and jest's `FAIL`/`×`/`●`, pytest's `FAILED`. Without one, the last line that is not
 * such a trailer: where compilers and most commands put their error.
 */
export function failureLine(output: readonly string[]): string | undefined {
  const marked = output.findIndex((line) => FAILED.test(line));
  if (marked >= 0) return withTapError(output, marked);
  return output.findLast((line) => line.trim() !== '' && !TRAILER.test(line));
}

const FAILED = /^\s*(?:not ok \d+\b|FAIL\b|FAILED\b|[×✗✖●] )/;

/** Summary and wrapper lines: TAP's plan and counts, vitest's timing, npm's closing error block. */
const TRAILER = /^\s*(?:#\s*(?:tests|suites|pass|fail|cancelled|skipped|todo|duration_ms)\b|1\.\.\d+$|Start at\b|Duration\b|npm (?:error|ERR!)|Ran all test suites)/;

/** A TAP `not ok` line with the first words of its diagnostic block's `error:` (inline or `|-` block). */
function withTapError(output: readonly string[], index: number): string {
  const line = output[index]!.trim();
  if (!line.startsWith('not ok')) return line;
  for (let i = index + 1; i < output.length && /^\s/.test(output[i]!) && !/^\s*(?:not )?ok \d/.test(output[i]!); i++) {
    const inline = /^\s+error:\s*(.*)$/.exec(output[i]!);
    if (!inline) continue;
    const text = /^[|>]-?$/.test(inline[1]!) ? output.slice(i + 1, i + 4).map((l) => l.trim()).filter(Boolean).slice(0, 2).join(' ') : inline[1]!.replace(/^'|'$/g, '');
    return text ? `${line}: ${text}` : line;
  }
  return line;
}

/** Timing lines say nothing about what happened. */
const TIMING = /^\s*(?:#\s*duration_ms\b|Duration\b|Start at\b)/;

/**
 * The line that sums up a command that succeeded: a TAP run's counts (`3 of 3 tests passed`, where
 * its last line is `# duration_ms 137.6`), else the last line that is not a timing line.
 */
export function successLine(output: readonly string[]): string | undefined {
  const count = (name: string) => output.map((line) => new RegExp(`^#\\s*${name}\\s+(\\d+)\\s*$`).exec(line.trim())?.[1]).find((n) => n !== undefined);
  const [tests, pass] = [count('tests'), count('pass')];
  if (tests !== undefined && pass !== undefined) return `${pass} of ${tests} test${tests === '1' ? '' : 's'} passed`;
  return output.findLast((line) => line.trim() !== '' && !TIMING.test(line));
}
