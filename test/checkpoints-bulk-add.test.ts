import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, closeSync, constants, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bulkPackLimit } from '../src/checkpoints/bulk-add.js';
import { ShadowGit, nulList } from '../src/checkpoints/shadow-git.js';
import { applyRewind, planRewind } from '../src/checkpoints/rewind.js';
import { SessionCheckpoints } from '../src/checkpoints/session-checkpoints.js';
import { takeSnapshot } from '../src/checkpoints/snapshot.js';
import { dropStalePackTemps } from '../src/checkpoints/stale-pack-temps.js';
import { waitFor } from './support/cli-process.js';

/** The store as the snapshot writes it, with packs capped at `packBytes` so a small tree still spans several. */
class SmallPacksGit extends ShadowGit {
  constructor(gitDir: string, workTree: string, private readonly packBytes = 32 * 1024) {
    super(gitDir, workTree);
  }
  override run(args: string[], input?: string, options?: { indexFile?: string }) {
    return super.run(args.map((arg) => (arg.startsWith('pack.packSizeLimit=') ? `pack.packSizeLimit=${this.packBytes}` : arg)), input, options);
  }
}

/** The path before packs: the same snapshot with every bulk setting dropped, so `git add` writes loose objects. */
class LooseGit extends ShadowGit {
  override run(args: string[], input?: string, options?: { indexFile?: string }) {
    const at = args.indexOf('add');
    return super.run(at > 0 && args[0] === '-c' ? args.slice(at) : args, input, options);
  }
}

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** Deterministic bytes that compress badly, as packed content should be varied. */
function noise(seed: number, size: number): Buffer {
  let state = seed >>> 0;
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (state = (state * 1664525 + 1013904223) >>> 0) >>> 24;
  return bytes;
}

/** A workspace of `count` varied files plus every awkward kind of entry a snapshot meets. */
function workspace(count = 300) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'vibe-bulk-')));
  roots.push(root);
  const ws = join(root, 'ws');
  const write = (path: string | Buffer, data: string | Buffer) => {
    const full = typeof path === 'string' ? join(ws, path) : Buffer.concat([Buffer.from(`${ws}/`), path]);
    mkdirSync(typeof path === 'string' ? dirname(full as string) : ws, { recursive: true });
    writeFileSync(full, data);
  };
  for (let i = 0; i < count; i++) write(`many/d${i % 7}/f${String(i).padStart(4, '0')}.txt`, i % 3 === 0 ? `line ${i}\n`.repeat(i % 50) : noise(i, 200 + ((i * 37) % 1300)));
  write('.gitignore', 'ignored/\n*.log\n');
  write('sub/.gitignore', '!keep.log\n');
  write('sub/keep.log', 'kept by the nested rule\n');
  write('sub/drop.log', 'ignored\n');
  write('ignored/x.txt', 'ignored\n');
  write('.env', 'TOKEN=secret\n');
  write('empty.txt', '');
  write('many/d0/empty', '');
  write('run.sh', '#!/bin/sh\necho hi\n');
  chmodSync(join(ws, 'run.sh'), 0o755);
  write('big.bin', noise(99, 300 * 1024));
  write('-dash and space.txt', 'x\n');
  write('ünï cödé ☃.txt', 'utf-8 name\n');
  write(Buffer.from([0x6c, 0x61, 0x74, 0x69, 0x6e, 0x2d, 0x63, 0x61, 0x66, 0xe9, 0x2e, 0x74, 0x78, 0x74]), 'a Latin-1 name\n');
  write('new\nline.txt', 'a newline in the name\n');
  symlinkSync('run.sh', join(ws, 'link-to-file'));
  symlinkSync('many', join(ws, 'link-to-dir'));
  symlinkSync('nowhere', join(ws, 'dangling'));
  return { root, ws, write };
}

function gitIn(gitDir: string, args: string[]): string {
  return execFileSync('git', args, { env: { ...process.env, GIT_DIR: gitDir }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Objects stored loose, each with its type (the store's trees are written loose by write-tree). */
function looseObjects(gitDir: string): [string, string][] {
  const objects = join(gitDir, 'objects');
  const ids = readdirSync(objects)
    .filter((dir) => /^[0-9a-f]{2}$/.test(dir))
    .flatMap((dir) => readdirSync(join(objects, dir)).map((name) => `${dir}${name}`));
  if (!ids.length) return [];
  const types = execFileSync('git', ['cat-file', '--batch-check=%(objecttype)'], { env: { ...process.env, GIT_DIR: gitDir }, input: ids.join('\n'), encoding: 'utf8' }).trim().split('\n');
  return ids.map((id, i) => [id, types[i]!]);
}

const packs = (gitDir: string) => readdirSync(join(gitDir, 'objects', 'pack')).filter((name) => name.endsWith('.idx'));

describe('the first snapshot of a large workspace', () => {
  it('writes the same tree as loose objects did, every blob in packs (several of them) but symlinks and 0–1-byte files', async () => {
    const { root, ws } = workspace();
    const packed = new SmallPacksGit(join(root, 'packed'), ws);
    const loose = new LooseGit(join(root, 'loose'), ws);
    const [bulk, before] = [await takeSnapshot(packed), await takeSnapshot(loose)];
    expect(bulk).toEqual(before);
    const listed = nulList(await packed.must(['ls-tree', '-r', '-z', bulk.tree]));
    const names = listed.map((entry) => entry.slice(entry.indexOf('\t') + 1));
    expect(names).toEqual(expect.arrayContaining(['run.sh', 'link-to-file', 'link-to-dir', 'dangling', 'empty.txt', 'sub/keep.log', 'new\nline.txt', 'ünï cödé ☃.txt', 'big.bin', 'latin-caf\ufffd.txt']));
    expect(names.filter((name) => /\.env$|drop\.log|^ignored\//.test(name))).toEqual([]);
    expect(listed.find((entry) => entry.endsWith('\trun.sh'))).toMatch(/^100755 blob/);
    expect(listed.find((entry) => entry.endsWith('\tdangling'))).toMatch(/^120000 blob/);
    expect(packs(packed.gitDir).length).toBeGreaterThan(3);
    // Loose blobs are only what git never streams: symlink targets and files of 0 or 1 byte (core.bigFileThreshold=1).
    const unstreamed = new Set(listed.filter((entry) => entry.startsWith('120000') || /\t(empty\.txt|many\/d0\/empty)$/.test(entry)).map((entry) => entry.split(/[ \t]/)[2]));
    expect(new Set(looseObjects(packed.gitDir).filter(([, type]) => type === 'blob').map(([id]) => id))).toEqual(unstreamed);
    expect(looseObjects(loose.gitDir).filter(([, type]) => type === 'blob').length).toBeGreaterThan(300);
    gitIn(packed.gitDir, ['fsck', '--full', '--strict', '--no-dangling']);
  });

  it('keeps the index as loose objects did: the next snapshot with nothing changed is one ls-files, and changes after it agree too', async () => {
    const { root, ws, write } = workspace();
    class Counting extends SmallPacksGit {
      calls: string[] = [];
      override run(args: string[], input?: string, options?: { indexFile?: string }) {
        this.calls.push(args.find((arg, i) => i === 0 || args[i - 1] !== '-c') ?? '');
        return super.run(args, input, options);
      }
    }
    const packed = new Counting(join(root, 'packed'), ws);
    const loose = new LooseGit(join(root, 'loose'), ws);
    const first = await takeSnapshot(packed);
    packed.calls = [];
    expect(await takeSnapshot(packed)).toEqual(first);
    expect(packed.calls).toEqual(['ls-files']);
    await takeSnapshot(loose);
    write('many/d1/f0001.txt', 'changed\n');
    rmSync(join(ws, 'many/d2/f0002.txt'));
    write('later.txt', 'new\n');
    expect(await takeSnapshot(packed)).toEqual(await takeSnapshot(loose));
  });

  it('sizes packs to a couple of thousand files each, never tiny', () => {
    expect(bulkPackLimit({ files: 100_000, bytes: 50_000_000 })).toBe(1_000_000);
    expect(bulkPackLimit({ files: 100_000, bytes: 5_000_000 })).toBe(256 * 1024);
    expect(bulkPackLimit({ files: 0, bytes: 0 })).toBe(256 * 1024);
  });
});

describe('a snapshot whose git is killed between packs', () => {
  it('leaves a usable store: finished packs valid, the earlier tree intact, no index lock, and the next snapshot equal to a fresh one', async () => {
    const { root, ws, write } = workspace(20);
    const git = new SmallPacksGit(join(root, 'store'), ws);
    const earlier = await takeSnapshot(git);
    const earlierFiles = await git.must(['ls-tree', '-r', earlier.tree]);
    // The gate: a clean filter on the last file git adds, which waits at a FIFO; every file before it is in the packs by then.
    const mark = join(root, 'gate-reached');
    const fifo = join(root, 'gate');
    execFileSync('mkfifo', [fifo]);
    appendFileSync(join(git.gitDir, 'config'), `[filter "gate"]\n\tclean = touch ${mark} && cat ${fifo} > /dev/null && cat\n`);
    write('.gitattributes', 'zz-gate.txt filter=gate\n');
    for (let i = 0; i < 400; i++) write(`more/g${String(i).padStart(4, '0')}.bin`, noise(1000 + i, 1024));
    write('zz-gate.txt', 'held\n');
    const snapshot = takeSnapshot(git);
    const failed = snapshot.then(
      () => 'finished',
      (error: Error) => error.message,
    );
    try {
      await waitFor(() => existsSync(mark), 'git to reach the gate', 60_000);
      // Mid-add: the earlier snapshot's pack and several of this add's are finished.
      expect(packs(git.gitDir).length).toBeGreaterThan(3);
      process.kill(gitAddOf(process.pid), 'SIGKILL');
    } finally {
      // The filter holds git's stderr open: it must end before git's result comes.
      await release(fifo);
    }
    expect(await failed).toMatch(/git add failed/);
    expect(existsSync(join(git.gitDir, 'index.lock'))).toBe(false);
    // The pack it was writing stays, half-written, until the next add.
    expect(packTemps(git.gitDir).length).toBeGreaterThan(0);
    gitIn(git.gitDir, ['fsck', '--full', '--strict', '--no-dangling']);
    expect(await git.must(['ls-tree', '-r', earlier.tree])).toBe(earlierFiles);

    rmSync(join(ws, '.gitattributes'));
    const fresh = new LooseGit(join(root, 'fresh'), ws);
    const after = await takeSnapshot(git);
    expect(after).toEqual(await takeSnapshot(fresh));
    expect(nulList(await git.must(['ls-tree', '-r', '-z', '--name-only', after.tree]))).toContain('zz-gate.txt');
    expect(packTemps(git.gitDir)).toEqual([]);
    gitIn(git.gitDir, ['fsck', '--full', '--strict', '--no-dangling']);
  }, 120_000);
});

describe('a pack a killed git add left half-written', () => {
  it('is left alone while an add runs (it holds the index lock), removed by the next snapshot once killed; the store stays whole and a rewind over it works', async () => {
    const { root, ws, write } = workspace();
    const sessionPath = join(root, 'session.jsonl');
    writeFileSync(sessionPath, '');
    const store = new SessionCheckpoints({ workspace: ws, sessionId: 's', env: { XDG_DATA_HOME: join(root, 'data'), HOME: root } });
    const checkpoint = await store.beforeTurn({ run: 1, turn: 1, prompt: 'first' });
    const { gitDir } = store.git;
    expect(packs(gitDir).length).toBeGreaterThan(0);
    const changed = readFileSync(join(ws, 'many/d2/f0002.txt'));
    const removed = readFileSync(join(ws, 'many/d1/f0001.txt'));
    write('many/d2/f0002.txt', 'changed after the checkpoint\n');
    rmSync(join(ws, 'many/d1/f0001.txt'));

    // The same gate as above: the add waits at its last file with the pack of the files before it open.
    const mark = join(root, 'gate-reached');
    const fifo = join(root, 'gate');
    execFileSync('mkfifo', [fifo]);
    appendFileSync(join(gitDir, 'config'), `[filter "gate"]\n\tclean = touch ${mark} && cat ${fifo} > /dev/null && cat\n`);
    write('.gitattributes', 'zz-gate.txt filter=gate\n');
    for (let i = 0; i < 400; i++) write(`more/g${String(i).padStart(4, '0')}.bin`, noise(2000 + i, 1024));
    write('zz-gate.txt', 'held\n');
    const failed = store.snapshot().then(
      () => 'finished',
      (error: Error) => error.message,
    );
    let writing: string[];
    try {
      await waitFor(() => existsSync(mark), 'git to reach the gate', 60_000);
      writing = packTemps(gitDir);
      expect(writing.length).toBeGreaterThan(0);
      // A live add's pack: its lock is there, so nothing is removed.
      expect(existsSync(join(gitDir, 'index.lock'))).toBe(true);
      expect(await dropStalePackTemps(gitDir)).toEqual([]);
      expect(packTemps(gitDir)).toEqual(writing);
      process.kill(gitAddOf(process.pid), 'SIGKILL');
    } finally {
      await release(fifo);
    }
    expect(await failed).toMatch(/git add failed/);
    expect(packTemps(gitDir)).toEqual(writing);
    const stale = writing.reduce((sum, name) => sum + statSync(join(gitDir, 'objects', 'pack', name)).size, 0);
    expect(stale).toBeGreaterThan(0);

    rmSync(join(ws, '.gitattributes'));
    await store.snapshot();
    expect(packTemps(gitDir)).toEqual([]);
    gitIn(gitDir, ['fsck', '--full', '--strict', '--no-dangling']);

    // The first checkpoint's files come back from the packs of the first snapshot.
    const plan = await planRewind(store, { checkpoint, files: true, conversation: false, sessionPath });
    const outcome = await applyRewind(store, plan);
    expect(outcome.files!.restored).toEqual(expect.arrayContaining(['many/d1/f0001.txt', 'many/d2/f0002.txt']));
    expect(readFileSync(join(ws, 'many/d2/f0002.txt'))).toEqual(changed);
    expect(readFileSync(join(ws, 'many/d1/f0001.txt'))).toEqual(removed);
    gitIn(gitDir, ['fsck', '--full', '--strict', '--no-dangling']);
  }, 120_000);
});

/** git's temporary files in the store's pack folder: a pack being written, or its index just before the rename. */
const packTemps = (gitDir: string) => readdirSync(join(gitDir, 'objects', 'pack')).filter((name) => /^tmp_(pack|idx|rev)_/.test(name)).sort();

/** The `git add` that `parent` started (seen in /proc). */
function gitAddOf(parent: number): number {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(git)') || Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== parent) continue;
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('add')) return Number(pid);
    } catch {
      // Gone meanwhile.
    }
  }
  throw new Error('no git add running');
}

/**
 * Lets the filter waiting on the FIFO go on: an open for writing and a close, so its read ends. The
 * filter touches its mark just before it opens the FIFO, so the open is tried until a reader is there
 * (without one it fails at once, and the filter would wait for good, holding git's stderr open).
 */
function release(fifo: string): Promise<void> {
  return waitFor(() => {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      return true;
    } catch {
      return false;
    }
  }, 'the gate filter to open its FIFO', 60_000);
}
