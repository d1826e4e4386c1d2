import type { MatchCollector } from './match-collector.js';
import { runRipgrep } from './rg-runner.js';
import { ALWAYS_SKIPPED } from './gitignore-walker.js';
import { MAX_SEARCH_FILE_BYTES, type SearchTarget } from './search-target.js';

export interface RgGrepQuery {
  /** The Rust form of the translated pattern. */
  source: string;
  ignoreCase: boolean;
  context: number;
  /** A file-name glob ripgrep may pre-filter with (the exact filter is the target's). */
  typeGlob?: string;
  /**
   * The JavaScript form, for the one case ripgrep reports a matching line without a column:
   * an empty match at the very end of a file that has no final newline.
   */
  lineRegex: RegExp;
}

/**
 * The walk both engines share, in ripgrep flags: hidden files searched, every ignore file
 * honoured whether or not there is a git repository, git's global excludes and ripgrep's config
 * file not read.
 */
export function walkFlags(): string[] {
  return ['--no-config', '--hidden', '--no-require-git', '--no-ignore-global', '--no-messages', ...[...ALWAYS_SKIPPED].flatMap((name) => ['--glob', `!${name}`])];
}

function withoutTerminator(text: string): string {
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}

/**
 * ripgrep's plain output with every field NUL-separated: `path\0line\0column\0text` for a match,
 * `path\0line\x01text` for context. A line's text never holds a NUL (ripgrep stops at one), so
 * the fields are unambiguous even when a match has no column (an empty match at the very end of
 * a file without a final newline). A line with no NUL is ripgrep's note that the file it was
 * printing turned out to be binary; that file is then dropped. This is a third of --json's size.
 */
const FORMAT_FLAGS = ['--null', '--line-number', '--column', '--no-heading', '--with-filename', '--color', 'never', '--field-match-separator', '\\x00', '--field-context-separator', '\\x01', '--no-context-separator'];

function readNumber(buffer: Buffer, from: number, end: number): { value: number; next: number } {
  let value = 0;
  let next = from;
  for (; next < end; next++) {
    const digit = buffer[next]! - 0x30;
    if (digit < 0 || digit > 9) break;
    value = value * 10 + digit;
  }
  return { value, next };
}

/** The ripgrep engine: one `rg` run over the target directory, fed to the collector. */
export async function grepWithRipgrep(binary: string, target: SearchTarget, query: RgGrepQuery, collector: MatchCollector, signal: AbortSignal): Promise<void> {
  const args = [
    ...FORMAT_FLAGS,
    ...walkFlags(),
    // No transcoding: a UTF-16 file has NULs, so both engines call it binary.
    '--encoding',
    'none',
    '--max-filesize',
    String(MAX_SEARCH_FILE_BYTES),
    query.ignoreCase ? '--ignore-case' : '--case-sensitive',
    ...(query.context > 0 ? ['--context', String(query.context)] : []),
    ...(query.typeGlob ? ['--type-add', `vibesearch:${query.typeGlob}`, '--type', 'vibesearch'] : []),
    '--regexp',
    query.source,
    '--',
    '.',
  ];
  let currentPath: Buffer | undefined;
  let open = false;
  let sawOutput = false;
  const run = await runRipgrep(binary, args, {
    cwd: target.absolute,
    signal,
    separator: 0x0a,
    onRecord(buffer, start, end) {
      sawOutput = true;
      const nul = buffer.indexOf(0, start);
      if (nul === -1 || nul >= end) {
        if (open) collector.endFile(false);
        open = false;
        return;
      }
      if (!currentPath || buffer.compare(currentPath, 0, currentPath.length, start, nul) !== 0) {
        if (open) collector.endFile(true);
        currentPath = Buffer.from(buffer.subarray(start, nul));
        const raw = currentPath.toString('utf8');
        const path = raw.startsWith('./') ? raw.slice(2) : raw;
        open = target.accepts(path);
        if (open) collector.beginFile(target.display(path));
      }
      if (!open) return;
      const line = readNumber(buffer, nul + 1, end);
      if (buffer[line.next] === 0x01) {
        collector.addContext(line.value, withoutTerminator(buffer.toString('utf8', line.next + 1, end)));
        return;
      }
      if (!collector.wantsMatchText()) return collector.countMatch();
      const column = readNumber(buffer, line.next + 1, end);
      const hasColumn = column.next > line.next + 1 && buffer[column.next] === 0;
      const bytes = buffer.subarray(hasColumn ? column.next + 1 : line.next + 1, end);
      const text = withoutTerminator(bytes.toString('utf8'));
      const index = hasColumn ? bytes.subarray(0, column.value - 1).toString('utf8').length : (query.lineRegex.exec(text)?.index ?? 0);
      collector.addMatch(line.value, text, index);
    },
  });
  if (open) collector.endFile(true);
  if (run.code === 2 && !sawOutput) throw new Error(`ripgrep failed: ${run.stderr.trim() || 'exit code 2'}`);
  if (run.code !== 0 && run.code !== 1 && run.code !== 2) throw new Error(`ripgrep stopped unexpectedly (exit ${run.code}): ${run.stderr.trim()}`);
}
