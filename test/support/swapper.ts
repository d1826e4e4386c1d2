/** Child processes that swap a path between two things as fast as they can, for race (TOCTOU) tests. */
import { spawn, type ChildProcess } from 'node:child_process';

const swappers: ChildProcess[] = [];

/** Ends every swapper started so far (call in afterEach). */
export function stopSwappers(): void {
  for (const child of swappers.splice(0)) child.kill('SIGKILL');
}

/**
 * Flips `path` between what it is and `other` (a folder and a link to one, a file and a FIFO) by
 * renames; resolves after its first flips. `link`: `other` is made as a symlink to it, not renamed in.
 */
export function startSwapper(path: string, other: string, how: 'link' | 'rename'): Promise<ChildProcess> {
  // Each state is held about as long as a write or read takes, so checks and opens meet both.
  const script = `
    const fs = require('node:fs');
    const [path, other, how] = process.argv.slice(1);
    const kept = path + '.real';
    const hold = () => { const until = performance.now() + 0.3; while (performance.now() < until); };
    const swapIn = () => (how === 'link' ? fs.symlinkSync(other, path) : fs.renameSync(other, path));
    const swapOut = () => (how === 'link' ? fs.unlinkSync(path) : fs.renameSync(path, other));
    for (let flips = 0; ; flips++) {
      try { fs.renameSync(path, kept); swapIn(); hold(); swapOut(); fs.renameSync(kept, path); hold(); } catch {}
      if (flips === 50) process.stdout.write('flipping\\n');
    }`;
  const child = spawn(process.execPath, ['-e', script, path, other, how], { stdio: ['ignore', 'pipe', 'inherit'] });
  swappers.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`swapper exited early (${code})`)));
  });
}
