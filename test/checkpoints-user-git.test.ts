import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyRewind, planRewind } from '../src/checkpoints/rewind.js';
import { SessionCheckpoints } from '../src/checkpoints/session-checkpoints.js';
import { nulList } from '../src/checkpoints/shadow-git.js';

const LIMIT = 1024;
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function gitIn(dir: string, args: string[]) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('GIT_')));
  return execFileSync('git', args, { cwd: dir, env: { ...env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' }, encoding: 'utf8' });
}

/** A git repository with 40 committed files (a tracked .env, a tracked file over the limit, a tracked file its .gitignore covers), one file modified and one untracked. */
function repository() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'vibe-usergit-')));
  roots.push(root);
  const ws = join(root, 'ws');
  const write = (path: string, content: string | Buffer) => {
    mkdirSync(dirname(join(ws, path)), { recursive: true });
    writeFileSync(join(ws, path), content);
  };
  for (let i = 0; i < 40; i++) write(`src/m${i % 4}/f${i}.ts`, `export const f${i} = ${i};\n`);
  write('.env', 'API_KEY=sk-committed-by-mistake\n');
  write('big.bin', Buffer.alloc(LIMIT * 2, 3));
  write('kept.log', 'tracked although ignored\n');
  gitIn(root, ['init', '-q', ws]);
  gitIn(ws, ['add', '-A']);
  write('.gitignore', '*.log\n');
  gitIn(ws, ['add', '.gitignore']);
  gitIn(ws, ['commit', '-qm', 'initial']);
  write('src/m0/f0.ts', 'export const f0 = "edited by the user";\n');
  write('notes.txt', 'untracked\n');
  const sessionPath = join(root, 'session.jsonl');
  writeFileSync(sessionPath, '');
  const store = new SessionCheckpoints({ workspace: ws, sessionId: 's', env: { XDG_DATA_HOME: join(root, 'data'), HOME: root }, maxFileBytes: LIMIT });
  const files = async (tree: string) => nulList(await store.git.must(['ls-tree', '-r', '-z', '--name-only', tree])).sort();
  /** The objects the store holds itself (loose), not those it borrows. */
  const ownObjects = () =>
    readdirSync(join(store.git.gitDir, 'objects'))
      .filter((dir) => /^[0-9a-f]{2}$/.test(dir))
      .flatMap((dir) => readdirSync(join(store.git.gitDir, 'objects', dir)).map((name) => dir + name));
  return { root, ws, write, store, sessionPath, files, ownObjects };
}

describe('checkpoints in a workspace that is a git repository', () => {
  it('start from the user index: the first snapshot stores what git status shows, and holds what an unseeded one would', async () => {
    const { ws, store, files, ownObjects } = repository();
    const checkpoint = await store.beforeTurn({ run: 1, turn: 1, prompt: 'p' });
    expect(existsSync(join(store.git.gitDir, 'objects', 'info', 'alternates'))).toBe(true);
    const expected = ['.gitignore', 'notes.txt', ...Array.from({ length: 40 }, (_, i) => `src/m${i % 4}/f${i}.ts`)].sort();
    expect(await files(checkpoint.tree)).toEqual(expected);
    expect(checkpoint.tooLarge).toEqual(['big.bin']);
    // The store's own blobs: the modified file and the untracked one; the committed ones are borrowed.
    const own = (await store.git.must(['cat-file', '--batch-check'], `${ownObjects().join('\n')}\n`)).split('\n').filter((line) => line.includes(' blob '));
    expect(own.length).toBe(2);
    // The user's repository is only read: its status is as it was.
    expect(gitIn(ws, ['status', '--porcelain']).split('\n').filter(Boolean).sort()).toEqual([' M src/m0/f0.ts', '?? notes.txt']);
  });

  it('rewinds a shell change of committed files after the user rewrote their history and pruned its objects', async () => {
    const { ws, write, store, sessionPath } = repository();
    const checkpoint = await store.beforeTurn({ run: 1, turn: 1, prompt: 'p' });
    // What a command does: rewrite a committed file, delete another, create one.
    write('src/m1/f1.ts', 'export const f1 = "by the agent";\n');
    rmSync(join(ws, 'src/m2/f2.ts'));
    write('src/made.ts', 'export {};\n');
    await store.afterRun();
    // The user squashes their history into a commit that no longer holds the old contents, and prunes.
    gitIn(ws, ['add', '-A']);
    gitIn(ws, ['commit', '-qm', 'agent work']);
    gitIn(ws, ['checkout', '-q', '--orphan', 'fresh']);
    gitIn(ws, ['commit', '-qm', 'squashed']);
    const old = gitIn(ws, ['branch', '--format=%(refname:short)']).split('\n').filter((name) => name && name !== 'fresh');
    for (const name of old) gitIn(ws, ['branch', '-q', '-D', name]);
    gitIn(ws, ['reflog', 'expire', '--expire=now', '--all']);
    gitIn(ws, ['gc', '-q', '--prune=now']);
    expect(() => gitIn(ws, ['cat-file', '-e', 'HEAD~1'])).toThrow();

    const plan = await planRewind(store, { checkpoint, files: true, conversation: false, sessionPath });
    expect(plan.toChange.sort()).toEqual(['src/m1/f1.ts', 'src/m2/f2.ts', 'src/made.ts']);
    await applyRewind(store, plan);
    expect(readFileSync(join(ws, 'src/m1/f1.ts'), 'utf8')).toBe('export const f1 = 1;\n');
    expect(readFileSync(join(ws, 'src/m2/f2.ts'), 'utf8')).toBe('export const f2 = 2;\n');
    expect(existsSync(join(ws, 'src/made.ts'))).toBe(false);
  });

  it('starts empty, as before, when the user index cannot be used (a split index)', async () => {
    const { ws, store, files } = repository();
    gitIn(ws, ['update-index', '--split-index']);
    const checkpoint = await store.beforeTurn({ run: 1, turn: 1, prompt: 'p' });
    expect(existsSync(join(store.git.gitDir, 'objects', 'info', 'alternates'))).toBe(false);
    expect(await files(checkpoint.tree)).toContain('src/m3/f3.ts');
    expect(await files(checkpoint.tree)).not.toContain('.env');
  });

  it('seeds a subfolder workspace from the entries under it: only what differs is stored, and its tree is what an unseeded store holds', async () => {
    const { root, ws, write } = repository();
    write('src/m1/fresh.ts', 'export const fresh = 1;\n');
    write('src/m1/f1.ts', 'export const f1 = "changed";\n');
    write('src/m1/.env', 'SECRET=1\n');
    const sub = join(ws, 'src', 'm1');
    const store = new SessionCheckpoints({ workspace: sub, sessionId: 's', env: { XDG_DATA_HOME: join(root, 'data'), HOME: root }, maxFileBytes: LIMIT });
    const checkpoint = await store.beforeTurn({ run: 1, turn: 1, prompt: 'p' });
    expect(existsSync(join(store.git.gitDir, 'objects', 'info', 'alternates'))).toBe(true);
    const listed = nulList(await store.git.must(['ls-tree', '-r', '-z', '--name-only', checkpoint.tree])).sort();
    expect(listed).toEqual(['f1.ts', 'f13.ts', 'f17.ts', 'f21.ts', 'f25.ts', 'f29.ts', 'f33.ts', 'f37.ts', 'f5.ts', 'f9.ts', 'fresh.ts'].sort());
    // The same tree as a store that starts empty (no repository above it).
    const plain = realpathSync(mkdtempSync(join(tmpdir(), 'vibe-usergit-plain-')));
    roots.push(plain);
    execFileSync('cp', ['-a', `${sub}/.`, plain]);
    const unseeded = new SessionCheckpoints({ workspace: plain, sessionId: 's', env: { XDG_DATA_HOME: join(plain, '..', `${plain.split('/').pop()}-data`), HOME: plain }, maxFileBytes: LIMIT });
    roots.push(join(plain, '..', `${plain.split('/').pop()}-data`));
    expect((await unseeded.beforeTurn({ run: 1, turn: 1, prompt: 'p' })).tree).toBe(checkpoint.tree);
    // Stored by the store itself: the changed and the new file's blobs, not the unchanged ones.
    const own = readdirSync(join(store.git.gitDir, 'objects'))
      .filter((dir) => /^[0-9a-f]{2}$/.test(dir))
      .flatMap((dir) => readdirSync(join(store.git.gitDir, 'objects', dir)).map((name) => dir + name));
    const blobs = (await store.git.must(['cat-file', '--batch-check'], `${own.join('\n')}\n`)).split('\n').filter((line) => line.includes(' blob '));
    expect(blobs.length).toBe(2);
  });

  it('does not seed a subfolder of a linked work tree (a .git file above it: the index is elsewhere)', async () => {
    const { root, ws } = repository();
    rmSync(join(ws, '.git'), { recursive: true, force: true });
    writeFileSync(join(ws, '.git'), 'gitdir: /nowhere\n');
    const store = new SessionCheckpoints({ workspace: join(ws, 'src'), sessionId: 's', env: { XDG_DATA_HOME: join(root, 'data'), HOME: root }, maxFileBytes: LIMIT });
    await store.beforeTurn({ run: 1, turn: 1, prompt: 'p' });
    expect(existsSync(join(store.git.gitDir, 'objects', 'info', 'alternates'))).toBe(false);
  });
});
