import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileIo } from '../src/checkpoints/apply-file-ops.js';
import { applyRewind, planRewind } from '../src/checkpoints/rewind.js';
import { SessionCheckpoints } from '../src/checkpoints/session-checkpoints.js';
import { rewindSummary } from '../src/cli/commands/rewind/rewind-text.js';

const LIMIT = 1024;
const READS_ANYTHING = process.getuid?.() === 0;
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** The user's workspace before the agent's turn: tracked files, ignored files, a file over the size limit. */
const INITIAL: Record<string, string | Buffer> = {
  '.gitignore': '*.log\nbuild/\n',
  'src/a.txt': 'a, as the user wrote it\n',
  'src/b.txt': 'b, as the user wrote it\n',
  'docs/c.txt': 'c, the docs\n',
  'lib/x.txt': 'x, a library file\n',
  'notes/n.txt': 'n, a note\n',
  'etc/f.txt': 'f, where a FIFO may come\n',
  'debug.log': 'an ignored log the user keeps\n',
  'build/out.js': 'an ignored build output\n',
  'big.bin': Buffer.alloc(LIMIT * 2, 7),
};

function workspace() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'vibe-rewind-')));
  roots.push(root);
  const ws = join(root, 'ws');
  const outside = join(root, 'outside');
  const write = (path: string, content: string | Buffer, base = ws) => {
    mkdirSync(dirname(join(base, path)), { recursive: true });
    writeFileSync(join(base, path), content);
  };
  for (const [path, content] of Object.entries(INITIAL)) write(path, content);
  write('x.txt', 'outside the workspace: must never change\n', outside);
  const sessionPath = join(root, 'session.jsonl');
  writeFileSync(sessionPath, '');
  const store = new SessionCheckpoints({ workspace: ws, sessionId: 's', env: { XDG_DATA_HOME: join(root, 'data'), HOME: root }, maxFileBytes: LIMIT });
  return { root, ws, outside, write, store, sessionPath };
}

/** Every entry under a folder, as kind, mode and content hash: what "the tree exactly as it was" means. */
function treeState(dir: string): Map<string, string> {
  const state = new Map<string, string>();
  const visit = (path: string, rel: string) => {
    const stat = lstatSync(path);
    const mode = (stat.mode & 0o7777).toString(8);
    if (stat.isSymbolicLink()) state.set(rel, `link ${readlinkSync(path)}`);
    else if (stat.isDirectory()) {
      state.set(rel, `dir ${mode}`);
      chmodSync(path, stat.mode | 0o700);
      for (const name of readdirSync(path)) visit(join(path, name), rel ? `${rel}/${name}` : name);
      chmodSync(path, stat.mode);
    } else if (stat.isFile()) {
      chmodSync(path, stat.mode | 0o600);
      state.set(rel, `file ${mode} ${createHash('sha256').update(readFileSync(path)).digest('hex')}`);
      chmodSync(path, stat.mode);
    } else state.set(rel, `special ${mode}`);
  };
  visit(dir, '');
  return state;
}

const fileState = (content: string | Buffer) => `file 644 ${createHash('sha256').update(content).digest('hex')}`;

function gitIn(dir: string, args: string[]) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('GIT_')));
  execFileSync('git', args, { cwd: dir, env: { ...env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' }, stdio: 'ignore' });
}

/** A file-system that fails at its n-th change (a full disk, a vanished folder): the rewind must undo what it did. */
function failingAt(n: number): FileIo & { calls: number } {
  const io = { ...fs, calls: 0 } as FileIo & { calls: number };
  for (const name of ['unlink', 'rmdir', 'mkdir', 'writeFile', 'symlink', 'rename', 'chmod'] as const) {
    const real = fs[name] as (...args: unknown[]) => Promise<unknown>;
    (io as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      io.calls += 1;
      if (io.calls === n) throw Object.assign(new Error('ENOSPC: no space left on device (injected)'), { code: 'ENOSPC' });
      return real(...args);
    };
  }
  return io;
}

const shapes = fc.record({
  edit: fc.boolean(),
  remove: fc.boolean(),
  create: fc.boolean(),
  rewriteIgnore: fc.boolean(),
  shrinkOversize: fc.boolean(),
  createOversize: fc.boolean(),
  linkInside: fc.boolean(),
  linkOutside: fc.boolean(),
  nestedRepo: fc.constantFrom('none', 'empty', 'committed', 'over-user-folder'),
  unreadable: fc.boolean(),
  fifo: fc.constantFrom('none', 'new', 'in-place-of-a-file'),
  userAfter: fc.boolean(),
  failAt: fc.option(fc.integer({ min: 1, max: 14 }), { nil: undefined }),
  // The workspace is a git repository with its files committed: the store starts from its index and borrows its objects.
  userRepo: fc.boolean(),
});
type Shape = typeof shapes extends fc.Arbitrary<infer T> ? T : never;

describe('a rewind in a hostile workspace', () => {
  it('undoes every agent edit inside the limits, leaves every other file byte-identical, and fails with the tree exactly as it was', async () => {
    await fc.assert(
      fc.asyncProperty(shapes, async (shape) => {
        const { ws, outside, write, store, sessionPath } = workspace();
        try {
          await rewindIn(shape, { ws, outside, write, store, sessionPath });
        } finally {
          rmSync(roots.pop()!, { recursive: true, force: true });
        }
      }),
      { numRuns: 30 },
    );
  }, 600_000);
});

async function rewindIn(shape: Shape, { ws, outside, write, store, sessionPath }: Omit<ReturnType<typeof workspace>, 'root'>): Promise<void> {
  if (shape.userRepo) {
    gitIn(ws, ['init', '-q']);
    gitIn(ws, ['add', '-A']);
    gitIn(ws, ['commit', '-qm', 'the user\'s work']);
  }
  const checkpoint = await store.beforeTurn({ run: 1, turn: 1, prompt: 'do things' });

  // The agent's turn: plain edits, and the hostile shapes.
  if (shape.edit) write('src/a.txt', 'a, as the agent rewrote it\n');
  if (shape.remove) rmSync(join(ws, 'src/b.txt'));
  if (shape.create) {
    write('gen/made.txt', 'made by the agent\n');
    write('src/made.txt', 'also made by the agent\n');
  }
  if (shape.rewriteIgnore) write('.gitignore', 'build/\nnotes/\n');
  if (shape.shrinkOversize) write('big.bin', 'now small\n');
  if (shape.createOversize) write('dump.bin', Buffer.alloc(LIMIT * 3, 1));
  if (shape.linkInside) {
    rmSync(join(ws, 'docs'), { recursive: true });
    symlinkSync('src', join(ws, 'docs'));
  }
  if (shape.linkOutside) {
    rmSync(join(ws, 'lib'), { recursive: true });
    symlinkSync(outside, join(ws, 'lib'));
  }
  if (shape.nestedRepo === 'empty' || shape.nestedRepo === 'committed') {
    write('vendor/pkg/index.js', 'a nested repository\n');
    gitIn(join(ws, 'vendor/pkg'), ['init', '-q']);
    if (shape.nestedRepo === 'committed') gitIn(join(ws, 'vendor/pkg'), ['commit', '-qam', 'x', '--allow-empty']);
  }
  if (shape.nestedRepo === 'over-user-folder') {
    gitIn(join(ws, 'notes'), ['init', '-q']);
    write('notes/n.txt', 'n, changed inside the nested repository\n');
  }
  if (shape.fifo === 'new') execFileSync('mkfifo', [join(ws, 'pipe')]);
  if (shape.fifo === 'in-place-of-a-file') {
    rmSync(join(ws, 'etc/f.txt'));
    execFileSync('mkfifo', [join(ws, 'etc/f.txt')]);
  }
  await store.afterRun();

  // After the run, the user's own work.
  if (shape.userAfter) {
    write('mine.txt', 'written by the user after the run\n');
    // An ignored file of the user's in a folder the agent made: the folder stays for it.
    if (shape.create) write('gen/trace.log', 'the user\'s ignored log\n');
  }
  if (shape.unreadable) chmodSync(join(ws, 'src/a.txt'), 0o000);

  const before = treeState(ws);
  const outsideBefore = treeState(outside);
  const plan = await planRewind(store, { checkpoint, files: true, conversation: false, sessionPath });
  const io = shape.failAt === undefined ? undefined : failingAt(shape.failAt);
  const outcome = await applyRewind(store, plan, io).then(
    (done) => done,
    (error: Error) => error,
  );
  expect(treeState(outside)).toEqual(outsideBefore);

  if (outcome instanceof Error) {
    // Only the injected failure may stop it, and then nothing is changed.
    expect(io).toBeDefined();
    expect(outcome.message).toMatch(/injected.*every file was put back as it was/);
    expect(treeState(ws)).toEqual(before);
    return;
  }
  const after = treeState(ws);
  // What the rewind must have undone: the agent's edits inside the limits.
  const expected = new Map(before);
  const restore = (path: string) => expected.set(path, fileState(INITIAL[path]!));
  // chmod 000 stops a snapshot reading the agent's edit, unless we are root: then it is undone, the mode kept.
  if (shape.edit && !shape.unreadable) restore('src/a.txt');
  if (shape.edit && shape.unreadable && READS_ANYTHING) expected.set('src/a.txt', fileState(INITIAL['src/a.txt']!).replace('644', '0'));
  if (shape.remove) restore('src/b.txt');
  if (shape.create) {
    for (const path of ['gen/made.txt', 'src/made.txt']) expected.delete(path);
    if (!shape.userAfter) expected.delete('gen');
  }
  if (shape.rewriteIgnore) restore('.gitignore');
  if (shape.linkInside) {
    expected.set('docs', 'dir 755');
    restore('docs/c.txt');
  }
  if (shape.linkOutside) {
    expected.set('lib', 'dir 755');
    restore('lib/x.txt');
  }
  expect(Object.fromEntries(after)).toEqual(Object.fromEntries(expected));

  // What it left alone, it names.
  const named = new Map(outcome.files!.leftAlone.map((entry) => [entry.path, entry.reason]));
  if (shape.shrinkOversize) expect(named.get('big.bin')).toBe('over the size limit');
  if (shape.rewriteIgnore) expect(named.get('debug.log')).toBe('ignored when captured');
  if (shape.nestedRepo === 'committed') expect(named.get('vendor/pkg')).toBe('nested repository');
  if (shape.userAfter) expect(named.get('mine.txt')).toBe('not made by the agent');
}

describe('a rewind checks before it touches anything', () => {
  it('changes nothing when a file changed between the plan and the apply, and says so', async () => {
    const { ws, write, store, sessionPath } = workspace();
    const checkpoint = await store.beforeTurn({ run: 1, turn: 1, prompt: 'edit' });
    write('src/a.txt', 'the agent\n');
    write('gen/made.txt', 'made\n');
    await store.afterRun();
    const plan = await planRewind(store, { checkpoint, files: true, conversation: false, sessionPath });
    expect(plan.toChange.sort()).toEqual(['gen/made.txt', 'src/a.txt']);
    write('gen/made.txt', 'the user took it over while the question was open\n');
    const before = treeState(ws);
    await expect(applyRewind(store, plan)).rejects.toThrow(/changed since the rewind was planned: gen\/made.txt \(changed since the snapshot\)\. Nothing was changed/);
    expect(treeState(ws)).toEqual(before);
    expect(store.list()).toHaveLength(1);
  });

  it('does not delete a file it cannot show the session made: none of its captures after the checkpoint holds it', async () => {
    const { ws, write, store, sessionPath } = workspace();
    const checkpoint = await store.beforeTurn({ run: 1, turn: 1, prompt: 'killed before its end' });
    // The run never reached its end (no "left" capture): nothing shows who made this file.
    write('new.txt', 'whose?\n');
    const plan = await planRewind(store, { checkpoint, files: true, conversation: false, sessionPath });
    expect(plan.leftAlone).toContainEqual({ path: 'new.txt', reason: 'not made by the agent' });
    await applyRewind(store, plan);
    expect(readFileSync(join(ws, 'new.txt'), 'utf8')).toBe('whose?\n');
  });

  it('judges "ignored" by the ignore rules of the checkpoint, in every folder: a rule the agent removed still protects the file', async () => {
    const { ws, write, store, sessionPath } = workspace();
    write('src/.gitignore', 'scratch.txt\n');
    write('src/scratch.txt', 'the user keeps this\n');
    // A secret file is never captured at all (the checkpoint store holds no secrets): left alone as well.
    write('src/secret.env', 'TOKEN=the user keeps this\n');
    const checkpoint = await store.beforeTurn({ run: 1, turn: 1, prompt: 'tidy' });
    rmSync(join(ws, 'src/.gitignore'));
    write('.gitignore', '!*.log\n');
    write('src/made.txt', 'made\n');
    await store.afterRun();
    const plan = await planRewind(store, { checkpoint, files: true, conversation: false, sessionPath });
    expect(plan.leftAlone).toEqual(expect.arrayContaining([{ path: 'src/scratch.txt', reason: 'ignored when captured' }]));
    const outcome = await applyRewind(store, plan);
    expect(outcome.files!.removed).toEqual(['src/made.txt']);
    expect(readFileSync(join(ws, 'src/secret.env'), 'utf8')).toBe('TOKEN=the user keeps this\n');
    expect(readFileSync(join(ws, 'src/scratch.txt'), 'utf8')).toBe('the user keeps this\n');
    expect(readFileSync(join(ws, 'src/.gitignore'), 'utf8')).toBe('scratch.txt\n');
    expect(readFileSync(join(ws, 'debug.log'), 'utf8')).toBe(INITIAL['debug.log']);
  });

  it('names hostile file names visibly: a control character is written out, a name git cannot look up line by line is left alone', async () => {
    const { ws, write, store, sessionPath } = workspace();
    const checkpoint = await store.beforeTurn({ run: 1, turn: 1, prompt: 'names' });
    write('\x1b[2Kred.txt', 'escape\n');
    write('two\nlines.txt', 'newline\n');
    await store.afterRun();
    const plan = await planRewind(store, { checkpoint, files: true, conversation: false, sessionPath });
    const outcome = await applyRewind(store, plan);
    expect(outcome.files!.removed).toEqual(['\x1b[2Kred.txt']);
    expect(readFileSync(join(ws, 'two\nlines.txt'), 'utf8')).toBe('newline\n');
    const summary = rewindSummary(plan, outcome, { target: 'checkpoint 1', undo: `/rewind ${outcome.undo.n}` }).join('\n');
    expect(summary).toContain('removed: \\e[2Kred.txt.');
    expect(summary).toContain('two\\nlines.txt (not made by the agent)');
    expect(summary).not.toMatch(/\x1b/);
  });
});
