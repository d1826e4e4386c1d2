/** Issue 19, class 11: a folder swapped for a symlink while write_file runs never receives a write outside. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../src/tools/coding/shared/atomic-write.js';
import { createFileTools } from '../src/tools/coding/file-tools.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { tempLayouts } from './support/security-setup.js';

const setup = tempLayouts();
const swappers: ChildProcess[] = [];
afterEach(() => {
  for (const child of swappers.splice(0)) child.kill('SIGKILL');
});

/** A child process flipping `dir` between a real folder and a link to `target` as fast as it can; resolves after its first flips. */
function startSwapper(dir: string, target: string): Promise<ChildProcess> {
  // Each state is held about as long as a write takes, so checks and writes meet both.
  const script = `
    const fs = require('node:fs');
    const [dir, target] = process.argv.slice(1);
    const kept = dir + '.real';
    const hold = () => { const until = performance.now() + 0.3; while (performance.now() < until); };
    for (let flips = 0; ; flips++) {
      try { fs.renameSync(dir, kept); fs.symlinkSync(target, dir); hold(); fs.unlinkSync(dir); fs.renameSync(kept, dir); hold(); } catch {}
      if (flips === 50) process.stdout.write('flipping\\n');
    }`;
  const child = spawn(process.execPath, ['-e', script, dir, target], { stdio: ['ignore', 'pipe', 'inherit'] });
  swappers.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`swapper exited early (${code})`)));
  });
}

describe('writes see the folders they checked', () => {
  it('write_file: 0 of 240 writes land outside while a folder flips to a symlink and back', async () => {
    const { workspace, outside } = setup();
    mkdirSync(join(workspace, 'sub', 'nested'), { recursive: true });
    mkdirSync(join(outside, 'nested'));
    await startSwapper(join(workspace, 'sub'), outside);
    const registry = new ToolRegistry(createFileTools());
    const results: string[] = [];
    for (let i = 0; i < 80; i++) {
      for (const path of [`sub/f${i}.txt`, `sub/nested/n${i}.txt`, `sub/new${i}/x.txt`]) {
        const result = await registry.invoke({ id: 'c', name: 'write_file', arguments: JSON.stringify({ path, content: `write ${i}\n` }) }, { workspace });
        results.push(result.status);
      }
    }
    const landed = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : []);
    expect(landed(outside).filter((name) => name !== 'nested')).toEqual([]);
    // Writes still work between swaps: the fix refuses only writes caught mid-swap.
    expect(results).toContain('ok');
  }, 120_000);

  it('writeFileAtomic refuses a path whose folder is a symlink right now, and replaces a link at the target instead of following it', async () => {
    const { workspace, outside } = setup();
    mkdirSync(join(workspace, 'real'));
    const { symlinkSync } = await import('node:fs');
    symlinkSync(outside, join(workspace, 'link'));
    await expect(writeFileAtomic(join(workspace, 'link', 'x.txt'), 'no')).rejects.toThrow();
    expect(existsSync(join(outside, 'x.txt'))).toBe(false);
    writeFileSync(join(outside, 'victim.txt'), 'original');
    symlinkSync(join(outside, 'victim.txt'), join(workspace, 'real', 'target.txt'));
    await writeFileAtomic(join(workspace, 'real', 'target.txt'), 'replaced');
    expect((await import('node:fs')).readFileSync(join(outside, 'victim.txt'), 'utf8')).toBe('original');
  });
});
