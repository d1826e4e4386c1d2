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
   * The JavaScript form, for the one case ripgrep reports a matching line without a submatch:
   * an empty match at the very end of a file that has no final newline.
   */
  lineRegex: RegExp;
}

function withoutTerminator(text: string): string {
  const end = text.endsWith('\r\n') ? -2 : text.endsWith('\n') ? -1 : text.length;
  return end === text.length ? text : text.slice(0, end);
}

/**
 * The walk both engines share, in ripgrep flags: hidden files searched, every ignore file
 * honoured whether or not there is a git repository, git's global excludes and ripgrep's config
 * file not read, no transcoding (a UTF-16 file has NULs, so both engines call it binary).
 */
export function walkFlags(): string[] {
  return ['--no-config', '--hidden', '--no-require-git', '--no-ignore-global', '--no-messages', ...[...ALWAYS_SKIPPED].flatMap((name) => ['--glob', `!${name}`])];
}

type Json = { text?: string; bytes?: string };

function decode(value: Json): Buffer {
  return value.text !== undefined ? Buffer.from(value.text, 'utf8') : Buffer.from(value.bytes ?? '', 'base64');
}

function pathOf(data: { path: Json }): string {
  const path = decode(data.path).toString('utf8');
  return path.startsWith('./') ? path.slice(2) : path;
}

// The second letter of each message type after '{"type":"', which is all a record is tested by.
const BEGIN = 'b'.charCodeAt(0);
const MATCH = 'm'.charCodeAt(0);
const CONTEXT = 'c'.charCodeAt(0);
const END = 'e'.charCodeAt(0);
const TYPE_OFFSET = '{"type":"'.length;

/** The ripgrep engine: one `rg --json` run over the target directory, fed to the collector. */
export async function grepWithRipgrep(binary: string, target: SearchTarget, query: RgGrepQuery, collector: MatchCollector, signal: AbortSignal): Promise<void> {
  const args = [
    '--json',
    ...walkFlags(),
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
  let open = false;
  let any = false;
  const run = await runRipgrep(binary, args, {
    cwd: target.absolute,
    signal,
    separator: 0x0a,
    onRecord(buffer, start, end) {
      any = true;
      const kind = buffer[start + TYPE_OFFSET];
      if (kind === BEGIN) {
        const path = pathOf(JSON.parse(buffer.toString('utf8', start, end)).data);
        open = target.accepts(path);
        if (open) collector.beginFile(target.display(path));
      } else if (!open) {
        return;
      } else if (kind === MATCH) {
        if (!collector.wantsMatchText()) return collector.countMatch();
        const data = JSON.parse(buffer.toString('utf8', start, end)).data;
        const bytes = decode(data.lines);
        const text = withoutTerminator(bytes.toString('utf8'));
        const startByte: number | undefined = data.submatches[0]?.start;
        const index = startByte === undefined ? (query.lineRegex.exec(text)?.index ?? 0) : bytes.subarray(0, startByte).toString('utf8').length;
        collector.addMatch(data.line_number, text, index);
      } else if (kind === CONTEXT) {
        const data = JSON.parse(buffer.toString('utf8', start, end)).data;
        collector.addContext(data.line_number, withoutTerminator(decode(data.lines).toString('utf8')));
      } else if (kind === END) {
        const data = JSON.parse(buffer.toString('utf8', start, end)).data;
        // A NUL found after some matches were printed: the file is binary after all.
        collector.endFile(data.binary_offset === null);
        open = false;
      }
    },
  });
  if (run.code === 2 && !any) throw new Error(`ripgrep failed: ${run.stderr.trim() || 'exit code 2'}`);
  if (run.code !== 0 && run.code !== 1 && run.code !== 2) throw new Error(`ripgrep stopped unexpectedly (exit ${run.code}): ${run.stderr.trim()}`);
}
