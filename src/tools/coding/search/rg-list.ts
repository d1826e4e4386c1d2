import type { PathHead } from './path-head.js';
import { runRipgrep } from './rg-runner.js';
import { walkFlags } from './rg-grep.js';
import type { SearchTarget } from './search-target.js';

/**
 * `rg --files` over the target with the walk both engines share, each file the JavaScript walker
 * would report given to `head` by its path from the target. With no path argument ripgrep names
 * files without a leading "./". `typeGlob` (search-glob.ts) narrows what ripgrep prints; the
 * target's own filter still decides. ripgrep walks on every core: reading its output in place
 * costs this process about 20 ms of CPU per 100,000 paths, less than a walker left out would cost.
 */
export async function listWithRipgrep(binary: string, target: SearchTarget, head: PathHead, signal: AbortSignal, typeGlob?: string): Promise<void> {
  const narrow = typeGlob ? ['--type-add', `vibelist:${typeGlob}`, '--type', 'vibelist'] : [];
  const run = await runRipgrep(binary, ['--files', '--null', ...walkFlags(), ...narrow], {
    cwd: target.absolute,
    signal,
    onRecords: (records, ascii) => addRecords(records, ascii, target, head),
  });
  // 1: no file at all; 2 with output: some folder could not be read, the rest is listed (the walker skips those too).
  if (run.code === 2 && head.total === 0 && run.stderr.trim() !== '') throw new Error(`ripgrep failed: ${run.stderr.trim()}`);
  if (run.code !== 0 && run.code !== 1 && run.code !== 2) throw new Error(`ripgrep stopped unexpectedly (exit ${run.code}): ${run.stderr.trim()}`);
}

/** The paths in `records` the target accepts, each made a string only if it must be tested or kept. */
function addRecords(records: string, ascii: boolean, target: SearchTarget, head: PathHead): void {
  const mustCheck = target.mustCheckIn?.(records, ascii);
  let next = 0;
  for (let start = 0; start <= records.length; ) {
    let end = records.indexOf('\0', start);
    if (end === -1) end = records.length;
    if (end > start) {
      let check = mustCheck === undefined;
      while (mustCheck !== undefined && next < mustCheck.length && mustCheck[next]! < end) {
        check = true;
        next++;
      }
      if (!check) head.addIn(records, start, end);
      else {
        const path = records.slice(start, end);
        if (target.accepts(path)) head.add(path);
      }
    }
    start = end + 1;
  }
}
