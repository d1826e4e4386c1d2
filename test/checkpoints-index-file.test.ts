import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { carriedCacheTree } from '../src/checkpoints/cache-tree.js';
import { readIndex, writeIndex } from '../src/checkpoints/index-file.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function git(dir: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('GIT_')));
  return execFileSync('git', args, { cwd: dir, env: { ...clean, ...env }, encoding: 'utf8' });
}

describe('the index file, read and written without git', () => {
  for (const version of [2, 3, 4]) {
    it(`reads a version ${version} index and writes one git lists the same (stat data included)`, () => {
      const root = mkdtempSync(join(tmpdir(), 'vibe-index-'));
      roots.push(root);
      for (let i = 0; i < 30; i++) {
        mkdirSync(join(root, `dir${i % 3}`, `sub${i % 2}`), { recursive: true });
        writeFileSync(join(root, `dir${i % 3}`, `sub${i % 2}`, `a-long-file-name-${i}.txt`), `${i}\n`);
      }
      writeFileSync(join(root, 'é ü.txt'), 'x\n');
      git(root, ['init', '-q']);
      git(root, ['add', '-A']);
      git(root, ['update-index', '--index-version', String(version)]);
      if (version === 3) git(root, ['update-index', '--skip-worktree', 'dir0/sub0/a-long-file-name-0.txt']);
      const parsed = readIndex(readFileSync(join(root, '.git', 'index')));
      if ('unusable' in parsed) throw new Error(parsed.unusable);
      expect(parsed.count).toBe(31);
      const entries = [...Array(parsed.count).keys()];
      expect(entries.filter((i) => parsed.extended(i)).map((i) => parsed.pathText(i))).toEqual(version === 3 ? ['dir0/sub0/a-long-file-name-0.txt'] : []);
      const copy = join(root, 'copy-index');
      writeFileSync(copy, writeIndex(parsed, entries.filter((i) => !parsed.extended(i))));
      const listing = (index: string) => git(root, ['ls-files', '--stage', '--debug'], { GIT_INDEX_FILE: index }).replace(/flags: [0-9a-f]+/g, '');
      const expected = listing(join(root, '.git', 'index')).split(/\n(?=\d{6} )/).filter((chunk) => !chunk.includes('a-long-file-name-0.txt') || version !== 3);
      expect(listing(copy).split(/\n(?=\d{6} )/)).toEqual(expected);
      // Stat data as git left it: no file differs from the copy (the skip-worktree entry left out is gone from it).
      expect(git(root, ['diff-files', '--name-status'], { GIT_INDEX_FILE: copy })).toBe('');
    });
  }

  it('names a split index unusable', () => {
    const root = mkdtempSync(join(tmpdir(), 'vibe-index-'));
    roots.push(root);
    writeFileSync(join(root, 'a'), 'a\n');
    git(root, ['init', '-q']);
    git(root, ['add', '-A']);
    git(root, ['update-index', '--split-index']);
    expect(readIndex(readFileSync(join(root, '.git', 'index')))).toEqual({ unusable: 'a split index' });
  });

  for (const prefix of ['', 'dir1/']) {
    it(`carries the user's cache tree (${prefix || 'the top'}), with the folders above a dropped entry invalid: write-tree gives the tree of the entries alone`, () => {
      const root = mkdtempSync(join(tmpdir(), 'vibe-index-'));
      roots.push(root);
      for (let i = 0; i < 24; i++) {
        mkdirSync(join(root, `dir${i % 3}`, `sub${i % 2}`, 'deep'), { recursive: true });
        writeFileSync(join(root, `dir${i % 3}`, `sub${i % 2}`, i % 4 ? `f${i}.txt` : `deep/f${i}.txt`), `${i}\n`);
      }
      git(root, ['init', '-q']);
      git(root, ['add', '-A']);
      git(root, ['write-tree']);
      const parsed = readIndex(readFileSync(join(root, '.git', 'index')));
      if ('unusable' in parsed) throw new Error(parsed.unusable);
      expect(parsed.cacheTree).toBeDefined();
      const under = [...Array(parsed.count).keys()].filter((i) => parsed.pathText(i).startsWith(prefix));
      const relative = (i: number) => parsed.path(i).subarray(prefix.length);
      // One entry deep down left out, as a secret file would be.
      const dropped = under.filter((i) => relative(i).toString().endsWith('sub0/deep/f4.txt'));
      expect(dropped.length).toBe(1);
      const kept = under.filter((i) => !dropped.includes(i));
      const carried = join(root, 'carried-index');
      const plain = join(root, 'plain-index');
      writeFileSync(carried, writeIndex(parsed, kept, prefix.length, carriedCacheTree(parsed.cacheTree, prefix, dropped.map(relative))));
      writeFileSync(plain, writeIndex(parsed, kept, prefix.length));
      const tree = (index: string) => git(root, ['write-tree'], { GIT_INDEX_FILE: index }).trim();
      expect(tree(carried)).toBe(tree(plain));
      // Nothing dropped: the carried root is the user's own folder's tree, unchanged.
      const whole = join(root, 'whole-index');
      writeFileSync(whole, writeIndex(parsed, under, prefix.length, carriedCacheTree(parsed.cacheTree, prefix, [])));
      expect(tree(whole)).toBe(git(root, ['rev-parse', `${git(root, ['write-tree']).trim()}${prefix ? `:${prefix.slice(0, -1)}` : ''}`]).trim());
    });
  }
});
