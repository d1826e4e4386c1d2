import { ALWAYS_SKIPPED } from './gitignore-walker.js';
import { runRipgrep } from './rg-runner.js';
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

/**
 * The ripgrep engine's candidates: the files ripgrep finds a match in (`--files-with-matches`, so
 * it stops reading each file at its first match and prints one path), on all cores. Their lines
 * are then read in output order by the one search both engines share, which stops at the limit
 * (searchInOrder): a common word costs one ripgrep walk, not the printing and parsing of every
 * matching line in the tree.
 */
export async function filesWithMatches(binary: string, target: SearchTarget, query: RgGrepQuery, signal: AbortSignal): Promise<Candidate[]> {
  const args = [
    '--files-with-matches',
    '--null',
    '--color',
    'never',
    ...walkFlags(),
    // No transcoding: a UTF-16 file has NULs, so both engines call it binary.
    '--encoding',
    'none',
    '--max-filesize',
    String(MAX_SEARCH_FILE_BYTES),
    query.ignoreCase ? '--ignore-case' : '--case-sensitive',
    ...(query.typeGlob ? ['--type-add', `vibesearch:${query.typeGlob}`, '--type', 'vibesearch'] : []),
    '--regexp',
    query.source,
    '--',
    '.',
  ];
  const files: Candidate[] = [];
  // A plain join: ripgrep's paths are clean and relative (path.join would normalise each one again).
  const base = target.absolute.endsWith('/') ? target.absolute : `${target.absolute}/`;
  const run = await runRipgrep(binary, args, {
    cwd: target.absolute,
    signal,
    onRecord(record) {
      // "./" and the path: ripgrep names what it found below the "." it was given.
      const path = record.startsWith('./') ? record.slice(2) : record;
      if (path !== '' && target.accepts(path)) files.push({ path: target.display(path), absolute: base + path });
    },
  });
  if (run.code === 2 && files.length === 0 && run.stderr.trim() !== '') throw new Error(`ripgrep failed: ${run.stderr.trim()}`);
  if (run.code !== 0 && run.code !== 1 && run.code !== 2) throw new Error(`ripgrep stopped unexpectedly (exit ${run.code}): ${run.stderr.trim()}`);
  return files;
}
