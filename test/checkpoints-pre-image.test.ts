import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyRewind, planRewind } from '../src/checkpoints/rewind.js';
import { SessionCheckpoints } from '../src/checkpoints/session-checkpoints.js';
import { nulList, type ShadowGit } from '../src/checkpoints/shadow-git.js';
import { takeSnapshot } from '../src/checkpoints/snapshot.js';
import { watchedFileAccess, WriteWatch } from '../src/checkpoints/write-watch.js';
import { diskFileAccess } from '../src/tools/coding/shared/file-access.js';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** A workspace (not a repository) whose whole-tree snapshots wait at a gate: before reading the tree, or after reading it. */
function workspace(hold: 'before reading' | 'after reading') {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'vibe-preimage-')));
  roots.push(root);
  const ws = join(root, 'ws');
  mkdirSync(join(ws, 'src'), { recursive: true });
  writeFileSync(join(ws, 'src', 'a.txt'), 'a as the user left it\n');
  writeFileSync(join(ws, 'b.txt'), 'b\n');
  const sessionPath = join(root, 'session.jsonl');
  writeFileSync(sessionPath, '');
  let held = gate();
  let reached = gate();
  const take = async (git: ShadowGit, max?: number) => {
    if (hold === 'before reading') {
      reached.open();
      await held.opened;
    }
    const snapshot = await takeSnapshot(git, max);
    if (hold === 'after reading') {
      reached.open();
      await held.opened;
    }
    return snapshot;
  };
  const store = new SessionCheckpoints({ workspace: ws, sessionId: 's', env: { XDG_DATA_HOME: join(root, 'data'), HOME: root }, takeSnapshot: take });
  const watch = new WriteWatch();
  watch.listen((absolute) => store.beforeWrite(absolute));
  const files = watchedFileAccess(diskFileAccess, watch);
  const write = (path: string, text: string) => files.write(join(ws, path), Buffer.from(text), {});
  const read = (path: string) => readFileSync(join(ws, path), 'utf8');
  const treeFiles = async (tree: string) => nulList(await store.git.must(['ls-tree', '-r', '-z', '--name-only', tree])).sort();
  const blob = async (tree: string, path: string) => store.git.must(['cat-file', 'blob', `${tree}:${path}`]);
  return {
    ws,
    store,
    write,
    read,
    treeFiles,
    blob,
    sessionPath,
    /** The gate of the snapshot running now; the next one gets a fresh gate. */
    release: () => {
      const current = held;
      held = gate();
      reached = gate();
      current.open();
    },
    reached: () => reached.opened,
    /** Lets the next snapshot `step` takes through its gate. */
    through: async <T>(step: Promise<T>): Promise<T> => {
      await reached.opened;
      const current = held;
      held = gate();
      reached = gate();
      current.open();
      return step;
    },
  };
}

describe('pre-images: the file tools write at once, the whole-tree snapshot runs in the background', () => {
  for (const hold of ['before reading', 'after reading'] as const) {
    it(`a rewind after a write restores exactly the pre-image, the snapshot held ${hold} the tree until after the write`, async () => {
      const w = workspace(hold);
      const turn = w.store.beginTurn({ run: 1, turn: 1, prompt: 'p' }, { whole: true });
      // The tools may run now: the snapshot has not finished (it waits at its gate).
      await turn.ready;
      await w.reached();
      await w.write('src/a.txt', 'a by the agent\n');
      await w.write('src/new.txt', 'made by the agent\n');
      await w.write('src/a.txt', 'a by the agent, twice\n');
      w.release();
      const checkpoint = await turn.recorded;
      expect(await w.treeFiles(checkpoint.tree)).toEqual(['b.txt', 'src/a.txt']);
      expect(await w.blob(checkpoint.tree, 'src/a.txt')).toBe('a as the user left it\n');
      await w.through(w.store.afterRun());
      const plan = await w.through(planRewind(w.store, { checkpoint, files: true, conversation: false, sessionPath: w.sessionPath }));
      expect(plan.toChange.sort()).toEqual(['src/a.txt', 'src/new.txt']);
      await applyRewind(w.store, plan);
      expect(w.read('src/a.txt')).toBe('a as the user left it\n');
      expect(existsSync(join(w.ws, 'src', 'new.txt'))).toBe(false);
      expect(w.read('b.txt')).toBe('b\n');
    });
  }

  it('turns of file-tool writes take the last tree with the written files; a command waits for the running snapshot; each turn rewinds to its own state', async () => {
    const w = workspace('before reading');
    const first = w.store.beginTurn({ run: 1, turn: 1, prompt: 'p' }, { whole: true });
    await first.ready;
    await w.reached();
    await w.write('src/a.txt', 'a after turn 1\n');
    // Turn 2 (file tools only, the first snapshot still held): a tree of its own at once.
    const second = w.store.beginTurn({ run: 1, turn: 2, prompt: 'p' }, {});
    await second.ready;
    await w.write('src/a.txt', 'a after turn 2\n');
    await w.write('c.txt', 'c from turn 2\n');
    // Turn 3 runs a command: its tools wait until the running snapshot has read the tree.
    const third = w.store.beginTurn({ run: 1, turn: 3, prompt: 'p' }, { waitForWhole: true });
    let thirdReady = false;
    void third.ready.then(() => (thirdReady = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(thirdReady).toBe(false);
    w.release();
    await third.ready;
    // The command: a change no tool announced.
    writeFileSync(join(w.ws, 'b.txt'), 'b by a command\n');
    const [one, two, three] = await Promise.all([first.recorded, second.recorded, third.recorded]);
    expect(await w.blob(one.tree, 'src/a.txt')).toBe('a as the user left it\n');
    expect(await w.blob(two.tree, 'src/a.txt')).toBe('a after turn 1\n');
    expect(await w.treeFiles(two.tree)).toEqual(['b.txt', 'src/a.txt']);
    expect(await w.blob(three.tree, 'src/a.txt')).toBe('a after turn 2\n');
    expect(await w.blob(three.tree, 'c.txt')).toBe('c from turn 2\n');
    expect([one.n, two.n, three.n]).toEqual([1, 2, 3]);
    await w.through(w.store.afterRun());
    // Back to turn 3: the command's change undone, the file tools' stay.
    let plan = await w.through(planRewind(w.store, { checkpoint: three, files: true, conversation: false, sessionPath: w.sessionPath }));
    expect(plan.toChange).toEqual(['b.txt']);
    await applyRewind(w.store, plan);
    expect(w.read('b.txt')).toBe('b\n');
    expect(w.read('src/a.txt')).toBe('a after turn 2\n');
    // Back to turn 2 (its rewind first checkpoints the files, a snapshot at the gate).
    plan = await w.through(planRewind(w.store, { checkpoint: two, files: true, conversation: false, sessionPath: w.sessionPath }));
    expect(plan.toChange.sort()).toEqual(['c.txt', 'src/a.txt']);
    await applyRewind(w.store, plan);
    expect(w.read('src/a.txt')).toBe('a after turn 1\n');
    expect(existsSync(join(w.ws, 'c.txt'))).toBe(false);
  });
});
