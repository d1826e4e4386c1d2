import { walkFiles } from './gitignore-walker.js';
import { runRipgrep } from './rg-runner.js';
import { walkFlags } from './rg-grep.js';
import type { SearchTarget } from './search-target.js';

/** Every reported file under the target (display paths, unsorted), through ripgrep or the walker. */
export async function listFiles(target: SearchTarget, ripgrep: string | undefined, signal: AbortSignal, typeGlob?: string): Promise<string[]> {
  const found: string[] = [];
  const report = (fromRoot: string) => {
    if (target.accepts(fromRoot)) found.push(target.display(fromRoot));
  };
  if (!ripgrep) {
    await walkFiles(target.absolute, { signal, onFile: report });
    return found;
  }
  const args = ['--files', '--null', ...walkFlags(), ...(typeGlob ? ['--type-add', `vibesearch:${typeGlob}`, '--type', 'vibesearch'] : []), '--', '.'];
  const run = await runRipgrep(ripgrep, args, {
    cwd: target.absolute,
    signal,
    separator: 0,
    onRecord(buffer, start, end) {
      const path = buffer.toString('utf8', start, end);
      report(path.startsWith('./') ? path.slice(2) : path);
    },
  });
  if (run.code === 2 && found.length === 0 && run.stderr.trim()) throw new Error(`ripgrep failed: ${run.stderr.trim()}`);
  return found;
}
