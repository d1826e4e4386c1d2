import { availableParallelism } from 'node:os';
import { runRipgrep } from './rg-runner.js';
import { walkFlags } from './rg-grep.js';
import type { SearchTarget } from './search-target.js';

/**
 * ripgrep's walkers leave one core to this process, which decodes, tests and keeps each path as it
 * is printed: on two cores a walk on both made the reader wait its turn (list_files 1.34–1.43× a bare
 * `rg --files` at 100,000 files), while one walker lists about as fast as two there.
 */
const LISTING_THREADS = Math.max(1, availableParallelism() - 1);

/** `rg --files` over the target with the walk both engines share: the files the JavaScript walker would report, as display paths, unsorted. */
export async function listWithRipgrep(binary: string, target: SearchTarget, signal: AbortSignal): Promise<string[]> {
  const files: string[] = [];
  const run = await runRipgrep(binary, ['--files', '--null', `--threads=${LISTING_THREADS}`, ...walkFlags(), '--', '.'], {
    cwd: target.absolute,
    signal,
    onRecord(record) {
      // "./" and the path: ripgrep names what it found below the "." it was given.
      const raw = record.startsWith('./') ? record.slice(2) : record;
      if (raw !== '' && target.accepts(raw)) files.push(target.display(raw));
    },
  });
  // 1: no file at all; 2 with output: some folder could not be read, the rest is listed (the walker skips those too).
  if (run.code === 2 && files.length === 0 && run.stderr.trim() !== '') throw new Error(`ripgrep failed: ${run.stderr.trim()}`);
  if (run.code !== 0 && run.code !== 1 && run.code !== 2) throw new Error(`ripgrep stopped unexpectedly (exit ${run.code}): ${run.stderr.trim()}`);
  return files;
}
