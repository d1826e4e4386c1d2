/**
 * Issue 19, class 11: a folder swapped for a symlink while write_file runs never receives a write outside.
 * Issue 27: a read of the agent's own files never returns what a swapped-in link or FIFO leads to.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../src/tools/coding/shared/atomic-write.js';
import { createFileTools } from '../src/tools/coding/file-tools.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { readOwnText, readOwnTextAsync, type ReadRule, type RefusedFileError } from '../src/workspace/read-own-file.js';
import { tempLayouts } from './support/security-setup.js';
import { startSwapper, stopSwappers } from './support/swapper.js';

const setup = tempLayouts();
afterEach(stopSwappers);

describe('writes see the folders they checked', () => {
  it('write_file: 0 of 240 writes land outside while a folder flips to a symlink and back', async () => {
    const { workspace, outside } = setup();
    mkdirSync(join(workspace, 'sub', 'nested'), { recursive: true });
    mkdirSync(join(outside, 'nested'));
    await startSwapper(join(workspace, 'sub'), outside, 'link');
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

describe('reads see the files they checked (issue 27)', () => {
  const rule = (workspace: string) => ({ within: [workspace], maxBytes: 1024 });

  it('a folder flipping to a link outside: 0 of 600 reads return what is outside, and reads between flips work', async () => {
    const { workspace, outside } = setup();
    mkdirSync(join(workspace, 'sub'));
    writeFileSync(join(workspace, 'sub', 'AGENTS.md'), 'inside\n');
    writeFileSync(join(outside, 'AGENTS.md'), 'OUTSIDE\n');
    await startSwapper(join(workspace, 'sub'), outside, 'link');
    const outcomes = new Set<string>();
    for (let i = 0; i < 600; i++) {
      try {
        outcomes.add(await (i % 2 ? readOwnTextAsync : async (path: string, r: ReadRule) => readOwnText(path, r))(join(workspace, 'sub', 'AGENTS.md'), rule(workspace)));
      } catch (error) {
        outcomes.add((error as RefusedFileError).code);
      }
    }
    expect(outcomes).not.toContain('OUTSIDE\n');
    expect(outcomes).toContain('inside\n');
  }, 120_000);

  it('a file flipping to a FIFO: 600 reads each end, none blocks, some read the file', async () => {
    const { workspace } = setup();
    writeFileSync(join(workspace, '.mcp.json'), '{}');
    execFileSync('mkfifo', [join(workspace, 'pipe')]);
    await startSwapper(join(workspace, '.mcp.json'), join(workspace, 'pipe'), 'rename');
    const outcomes = new Set<string>();
    for (let i = 0; i < 600; i++) {
      try {
        outcomes.add(await (i % 2 ? readOwnTextAsync : async (path: string, r: ReadRule) => readOwnText(path, r))(join(workspace, '.mcp.json'), rule(workspace)));
      } catch (error) {
        outcomes.add((error as RefusedFileError).code);
      }
    }
    expect(outcomes).toContain('{}');
    expect([...outcomes].filter((outcome) => outcome !== '{}' && !['ENOTREG', 'ENOENT', 'EUNREADABLE'].includes(outcome))).toEqual([]);
  }, 120_000);
});
