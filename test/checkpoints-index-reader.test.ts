import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readIndex, writeIndex, type IndexFile } from '../src/checkpoints/index-file.js';
import { SessionCheckpoints } from '../src/checkpoints/session-checkpoints.js';
import { parseIndex as parseIndexBefore, writeIndex as writeIndexBefore } from './support/index-file-before.js';

// The index read into offsets over its one buffer (src/checkpoints/index-file.ts) against the reader
// and writer it replaced (test/support/index-file-before.ts), on indexes real git wrote.

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function git(dir: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('GIT_')));
  return execFileSync('git', args, { cwd: dir, env: { ...clean, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t', ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A name that is not UTF-8 (git keeps a path's bytes as they are). */
const NOT_UTF8 = Buffer.from([0x73, 0x75, 0x62, 0x2f, 0x66, 0xff, 0xfe, 0x2e, 0x62, 0x69, 0x6e]);

/**
 * A repository with files at its top and under `sub/`: ASCII, accented, CJK and emoji names, one
 * name that is not UTF-8, and a folder path of 200 bytes (version 4 spells out more path bytes than
 * the file holds). Nothing added yet.
 */
function repository(): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'vibe-index-reader-')));
  roots.push(root);
  const write = (path: string, content: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  };
  for (let i = 0; i < 40; i++) write(`${i % 2 ? 'sub' : 'top'}/d${i % 3}/file-${i}.ts`, `export const f${i} = ${i};\n`);
  for (const name of ['é ü.txt', 'sub/ñandú/árbol.md', 'sub/日本/ファイル.md', 'sub/😀.txt', 'Ω.txt']) write(name, `${name}\n`);
  writeFileSync(Buffer.concat([Buffer.from(`${root}/`), NOT_UTF8]), 'bytes\n');
  const long = `${'a'.repeat(100)}/${'b'.repeat(99)}`;
  for (let i = 0; i < 60; i++) write(`sub/${long}/f${i}`, `${i}\n`);
  git(root, ['init', '-q']);
  return root;
}

const allEntries = (index: IndexFile) => Array.from({ length: index.count }, (_, i) => i);

/** Each entry as the reader sees it, in hex where bytes. */
function entriesNow(index: IndexFile) {
  return allEntries(index).map((i) => ({
    fixed: index.bytes.subarray(index.fixedAt[i]!, index.fixedAt[i]! + 62).toString('hex'),
    path: index.path(i).toString('hex'),
    stage: index.stage(i),
    extended: index.extended(i),
    mode: index.mode(i),
    size: index.size(i),
  }));
}

/**
 * The reader's result equals the old parser's on `bytes`: every entry's fixed bytes, path, stage,
 * extended flag, mode and size, and the cache tree. Then the copy written for the workspace at the
 * top and in `sub/` (its plain entries, paths made relative) is byte for byte the old writer's.
 * Returns the reader's result.
 */
function expectAsBefore(bytes: Buffer): IndexFile {
  const before = parseIndexBefore(bytes);
  const now = readIndex(bytes);
  if ('unusable' in before) throw new Error(`the old parser: ${before.unusable}`);
  if ('unusable' in now) throw new Error(`the reader: ${now.unusable}`);
  expect(entriesNow(now)).toEqual(
    before.entries.map((entry) => ({ fixed: entry.fixed.toString('hex'), path: entry.path.toString('hex'), stage: entry.stage, extended: entry.extended, mode: entry.mode, size: entry.size })),
  );
  expect(now.cacheTree?.toString('hex')).toBe(before.cacheTree?.toString('hex'));
  for (const prefix of ['', 'sub/']) {
    const start = Buffer.from(prefix);
    const chosen = allEntries(now).filter((i) => now.pathStartsWith(i, start) && now.stage(i) === 0 && !now.extended(i));
    const chosenBefore = before.entries.filter((entry) => entry.path.subarray(0, start.length).equals(start) && entry.stage === 0 && !entry.extended);
    expect(chosen.length).toBe(chosenBefore.length);
    const relative = chosenBefore.map((entry) => ({ fixed: entry.fixed, path: entry.path.subarray(start.length) }));
    expect(writeIndex(now, chosen, start.length, now.cacheTree).equals(writeIndexBefore(relative, before.cacheTree))).toBe(true);
    expect(writeIndex(now, chosen, start.length).equals(writeIndexBefore(relative))).toBe(true);
  }
  return now;
}

/** What git lists of an index file, without the flags (the copy drops stage and extended bits by design). */
const listing = (root: string, index: string) => git(root, ['ls-files', '--stage', '-z'], { GIT_INDEX_FILE: index }).split('\0').filter(Boolean);

describe('the index read into offsets, against the parser it replaced', () => {
  for (const version of [2, 3, 4]) {
    it(`version ${version}, without and with a cache tree and other extensions: entries, paths (not UTF-8 too) and copies as before`, () => {
      const root = repository();
      git(root, ['add', '-A']);
      git(root, ['update-index', '--index-version', String(version)]);
      // git writes version 3 only while an entry has extended flags (else version 2).
      if (version === 3) git(root, ['update-index', '--skip-worktree', 'top/d0/file-0.ts']);
      const plainBytes = readFileSync(join(root, '.git', 'index'));
      const plain = expectAsBefore(plainBytes);
      expect(plain.version).toBe(version);
      // Version 4: the paths spelt out whole outgrow the buffer first taken for them (the file's size).
      if (version === 4) expect(plain.names.length).toBeGreaterThan(plainBytes.length);
      expect(plain.cacheTree).toBeUndefined();
      expect(allEntries(plain).some((i) => plain.path(i).equals(NOT_UTF8))).toBe(true);
      // A cache tree (write-tree), the untracked cache and the end-of-entries mark.
      git(root, ['write-tree']);
      git(root, ['-c', 'core.untrackedCache=true', 'update-index', '--untracked-cache']);
      git(root, ['-c', 'core.untrackedCache=true', 'status', '--porcelain']);
      git(root, ['-c', 'index.recordEndOfIndexEntries=true', 'update-index', '--force-write-index']);
      const bytes = readFileSync(join(root, '.git', 'index'));
      for (const signature of ['TREE', 'UNTR', 'EOIE']) expect(bytes.includes(signature)).toBe(true);
      const extended = expectAsBefore(bytes);
      expect(extended.cacheTree).toBeDefined();
      // git reads the copy as the entries it was given.
      const copy = join(root, 'copy');
      writeFileSync(copy, writeIndex(extended, allEntries(extended), 0, extended.cacheTree));
      expect(extended.version).toBe(version);
      expect(listing(root, copy)).toEqual(listing(root, join(root, '.git', 'index')));
      expect(git(root, ['diff-files', '--name-only'], { GIT_INDEX_FILE: copy })).toBe('');
    });
  }

  for (const version of [3, 4]) {
    it(`version ${version} with extended flags (git add -N, skip-worktree): flagged as before, and left out of a copy`, () => {
      const root = repository();
      git(root, ['add', '-A']);
      git(root, ['commit', '-qm', 'c']);
      writeFileSync(join(root, 'sub', 'intent.ts'), 'later\n');
      git(root, ['add', '-N', 'sub/intent.ts']);
      git(root, ['update-index', '--skip-worktree', 'top/d0/file-0.ts']);
      git(root, ['update-index', '--index-version', String(version)]);
      const index = expectAsBefore(readFileSync(join(root, '.git', 'index')));
      expect(index.version).toBe(version);
      expect(allEntries(index).filter((i) => index.extended(i)).map((i) => index.pathText(i))).toEqual(['sub/intent.ts', 'top/d0/file-0.ts']);
    });
  }

  for (const version of [2, 4]) {
    it(`version ${version} in a merge conflict (stages 1–3), then resolved (a resolve-undo extension)`, () => {
      const root = repository();
      git(root, ['add', '-A']);
      git(root, ['commit', '-qm', 'base']);
      git(root, ['checkout', '-qb', 'other']);
      writeFileSync(join(root, 'sub', '😀.txt'), 'other\n');
      git(root, ['commit', '-qam', 'other']);
      git(root, ['checkout', '-q', '-']);
      writeFileSync(join(root, 'sub', '😀.txt'), 'mine\n');
      git(root, ['commit', '-qam', 'mine']);
      expect(() => git(root, ['merge', '-q', 'other'])).toThrow();
      git(root, ['update-index', '--index-version', String(version)]);
      const conflicted = expectAsBefore(readFileSync(join(root, '.git', 'index')));
      expect(allEntries(conflicted).filter((i) => conflicted.stage(i) !== 0).map((i) => [conflicted.pathText(i), conflicted.stage(i)])).toEqual([
        ['sub/😀.txt', 1],
        ['sub/😀.txt', 2],
        ['sub/😀.txt', 3],
      ]);
      git(root, ['add', 'sub/😀.txt']);
      const bytes = readFileSync(join(root, '.git', 'index'));
      expect(bytes.includes('REUC')).toBe(true);
      expectAsBefore(bytes);
    });
  }

  it('says a split or a sparse index cannot be used, as before', () => {
    const split = repository();
    git(split, ['add', '-A']);
    git(split, ['update-index', '--split-index']);
    const splitBytes = readFileSync(join(split, '.git', 'index'));
    expect(readIndex(splitBytes)).toEqual(parseIndexBefore(splitBytes));
    expect(readIndex(splitBytes)).toEqual({ unusable: 'a split index' });
    const sparse = repository();
    git(sparse, ['add', '-A']);
    git(sparse, ['commit', '-qm', 'c']);
    git(sparse, ['sparse-checkout', 'init', '--cone', '--sparse-index']);
    git(sparse, ['sparse-checkout', 'set', 'sub']);
    const sparseBytes = readFileSync(join(sparse, '.git', 'index'));
    expect(readIndex(sparseBytes)).toEqual({ unusable: 'a sparse index' });
    expect(readIndex(sparseBytes)).toEqual(parseIndexBefore(sparseBytes));
  });

  it('says a damaged index cannot be used, as before: cut short, or naming more entries than it holds', () => {
    const root = repository();
    git(root, ['add', '-A']);
    for (const version of [2, 4]) {
      git(root, ['update-index', '--index-version', String(version)]);
      const bytes = readFileSync(join(root, '.git', 'index'));
      for (const cut of [40, 400, Math.floor(bytes.length / 2)]) {
        const short = bytes.subarray(0, cut);
        expect(readIndex(short)).toEqual(parseIndexBefore(short));
      }
      const inflated = Buffer.from(bytes);
      inflated.writeUInt32BE(0xffffffff, 8);
      expect(readIndex(inflated)).toEqual({ unusable: 'truncated index' });
      expect(readIndex(inflated)).toEqual(parseIndexBefore(inflated));
    }
  });
});

describe('a store seeded in a subfolder from each index version', () => {
  for (const version of [2, 3, 4]) {
    it(`version ${version}: the first snapshot of sub/ (non-ASCII names, an intent-to-add file, a changed one) is the tree an unseeded store takes`, async () => {
      const root = repository();
      // No name that is not UTF-8 here: the unseeded store names paths as text.
      rmSync(Buffer.concat([Buffer.from(`${root}/`), NOT_UTF8]));
      git(root, ['add', '-A']);
      git(root, ['commit', '-qm', 'c']);
      writeFileSync(join(root, 'sub', 'intent.ts'), 'later\n');
      git(root, ['add', '-N', 'sub/intent.ts']);
      writeFileSync(join(root, 'sub', 'ñandú', 'árbol.md'), 'changed\n');
      git(root, ['update-index', '--index-version', String(version)]);
      const sub = join(root, 'sub');
      const data = join(root, '..', `${root.split('/').pop()}-data`);
      roots.push(data);
      const seeded = new SessionCheckpoints({ workspace: sub, sessionId: 's', env: { XDG_DATA_HOME: join(data, 'seeded'), HOME: root } });
      const tree = (await seeded.beforeTurn({ run: 1, turn: 1, prompt: 'p' })).tree;
      expect(readFileSync(join(seeded.git.gitDir, 'objects', 'info', 'alternates'), 'utf8')).toContain(join(root, '.git', 'objects'));
      const plain = realpathSync(mkdtempSync(join(tmpdir(), 'vibe-index-reader-plain-')));
      roots.push(plain);
      execFileSync('cp', ['-a', `${sub}/.`, plain]);
      const unseeded = new SessionCheckpoints({ workspace: plain, sessionId: 's', env: { XDG_DATA_HOME: join(data, 'plain'), HOME: plain } });
      expect((await unseeded.beforeTurn({ run: 1, turn: 1, prompt: 'p' })).tree).toBe(tree);
      expect(git(root, ['ls-tree', '-r', '--name-only', '-z', tree], { GIT_DIR: seeded.git.gitDir }).split('\0')).toContain('intent.ts');
    });
  }
});
