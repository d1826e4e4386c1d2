import { ALWAYS_SKIPPED } from './gitignore-walker.js';
import { canWatchReads, watchHugeReads } from './huge-read-watch.js';
import { runRipgrep, type RipgrepRun } from './rg-runner.js';
import type { Candidate } from './js-grep.js';
import { MAX_SEARCH_FILE_BYTES, type SearchTarget } from './search-target.js';

export interface RgGrepQuery {
  /** The Rust form of the translated pattern. */
  source: string;
  ignoreCase: boolean;
  /** A file-name glob ripgrep may pre-filter with (the exact filter is the target's). */
  typeGlob?: string;
}

/**
 * The walk both engines share, in ripgrep flags: hidden files searched, every ignore file
 * honoured whether or not there is a git repository, git's global excludes and ripgrep's config
 * file not read.
 */
export function walkFlags(): string[] {
  return ['--no-config', '--hidden', '--no-require-git', '--no-ignore-global', '--no-messages', ...[...ALWAYS_SKIPPED].flatMap((name) => ['--glob', `!${name}`])];
}

/** Thrown when ripgrep, run without --max-filesize, reads past the limit of one file. */
class HugeFileRead extends Error {}

/** How many parallel searches this process ran again with --max-filesize after ripgrep read a huge file; for tests. */
export let hugeFileReruns = 0;

/**
 * The ripgrep engine's candidates: the files ripgrep finds a match in (`--files-with-matches`, so
 * it stops reading each file at its first match and prints one path), on all cores. Their lines
 * are then read in output order by the one search both engines share, which stops at the limit
 * (searchInOrder): a common word costs one ripgrep walk, not the printing and parsing of every
 * matching line in the tree.
 *
 * `--max-filesize` makes ripgrep stat every file (a quarter of its time at 100,000 small files),
 * and the shared search skips files over the limit anyway; so where the system shows a process's
 * read positions (huge-read-watch.ts) ripgrep runs without it, watched: once it has read past the
 * limit of one file (a huge text file; a binary one is dropped at its first NUL), it is killed
 * and the search runs again with the flag.
 */
export async function filesWithMatches(binary: string, target: SearchTarget, query: RgGrepQuery, signal: AbortSignal): Promise<Candidate[]> {
  if (canWatchReads()) {
    try {
      return await listMatchingFiles(binary, target, query, signal, true);
    } catch (error) {
      if (!(error instanceof HugeFileRead)) throw error;
      hugeFileReruns++;
    }
  }
  return listMatchingFiles(binary, target, query, signal, false);
}

async function listMatchingFiles(binary: string, target: SearchTarget, query: RgGrepQuery, signal: AbortSignal, watched: boolean): Promise<Candidate[]> {
  const files: Candidate[] = [];
  const candidate = candidateMaker(target);
  const run = await runRipgrep(binary, ['--files-with-matches', ...searchFlags(query, { sizeLimit: !watched })], {
    cwd: target.absolute,
    signal,
    onRecord(record) {
      const found = candidate(record);
      if (found) files.push(found);
    },
    ...(watched && {
      onSpawn: (pid, stop) => watchHugeReads(pid, MAX_SEARCH_FILE_BYTES, () => stop(new HugeFileRead('ripgrep read past the size limit of a file'))),
    }),
  });
  checkExit(run, files.length > 0);
  return files;
}

/** The flags of a search over the target (given as "."), after the output mode's; `sizeLimit: false` leaves out --max-filesize. */
export function searchFlags(query: RgGrepQuery, { sizeLimit = true } = {}): string[] {
  return [
    '--null',
    '--color',
    'never',
    ...walkFlags(),
    // No transcoding: a UTF-16 file has NULs, so both engines call it binary.
    '--encoding',
    'none',
    ...(sizeLimit ? ['--max-filesize', String(MAX_SEARCH_FILE_BYTES)] : []),
    query.ignoreCase ? '--ignore-case' : '--case-sensitive',
    ...(query.typeGlob ? ['--type-add', `vibesearch:${query.typeGlob}`, '--type', 'vibesearch'] : []),
    '--regexp',
    query.source,
    '--',
    '.',
  ];
}

/** Makes a path ripgrep printed into a candidate, or undefined when the target does not report it. */
export function candidateMaker(target: SearchTarget): (printed: string) => Candidate | undefined {
  // A plain join: ripgrep's paths are clean and relative (path.join would normalise each one again).
  const base = target.absolute.endsWith('/') ? target.absolute : `${target.absolute}/`;
  return (printed) => {
    // "./" and the path: ripgrep names what it found below the "." it was given.
    const path = printed.startsWith('./') ? printed.slice(2) : printed;
    return path !== '' && target.accepts(path) ? { path: target.display(path), absolute: base + path } : undefined;
  };
}

/** Throws unless ripgrep ended as a search does: 0 or 1, or 2 (a folder it could not read) with output. */
export function checkExit(run: RipgrepRun, printed: boolean): void {
  if (run.code === 2 && !printed && run.stderr.trim() !== '') throw new Error(`ripgrep failed: ${run.stderr.trim()}`);
  if (run.code !== 0 && run.code !== 1 && run.code !== 2) throw new Error(`ripgrep stopped unexpectedly (exit ${run.code}): ${run.stderr.trim()}`);
}
