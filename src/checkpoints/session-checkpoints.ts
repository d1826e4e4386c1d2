import { realpathSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { userCacheDir } from '../contracts/user-cache-dir.js';
import { userConfigDir } from '../memory/memory-paths.js';
import { userDataDir } from '../session/paths.js';
import { CheckpointLog, checkpointsDir, type Checkpoint } from './checkpoint-log.js';
import { ShadowGit } from './shadow-git.js';
import { overlayTree } from './overlay-tree.js';
import { capturePath, type Capture } from './pre-image.js';
import { DEFAULT_MAX_FILE_BYTES, takeSnapshot, type Snapshot } from './snapshot.js';

export interface CheckpointOptions {
  workspace: string;
  sessionId: string;
  env?: NodeJS.ProcessEnv;
  maxFileBytes?: number;
  /** How a whole-tree snapshot is taken (tests hold one open to write meanwhile). */
  takeSnapshot?: (git: ShadowGit, maxFileBytes?: number) => Promise<Snapshot>;
}

/** What `beginTurn` hands back: when the turn's tools may run, and when its checkpoint is in the log. */
export interface TurnCheckpoint {
  ready: Promise<void>;
  recorded: Promise<Checkpoint>;
}

/** A snapshot of the whole workspace being taken, and the earlier content of each file a file tool wrote meanwhile. */
interface FullSnapshot {
  done: Promise<Snapshot>;
  window: Map<string, Promise<Capture>>;
}

/**
 * A session's checkpoints in a workspace: taking them, listing them, and the store they live in.
 *
 * A checkpoint costs what changed, not what the workspace holds. Its tree is one of:
 * - a snapshot of the whole workspace (the run's first, and after a turn that ran a command, a
 *   subagent or anything else that may change any file), taken in the background; the file tools'
 *   writes that land while it runs are captured just before they land (`beforeWrite`), and their
 *   earlier content replaces whatever the snapshot read, so the tree is the workspace as it was when
 *   the snapshot began. Only a call that may change any file waits for it (`ready`);
 * - after turns that only wrote through the file tools: the last checkpoint's tree with the files
 *   they wrote as they are now (read at once: a few files).
 */
export class SessionCheckpoints {
  readonly git: ShadowGit;
  readonly log: CheckpointLog;
  /** The latest checkpoint's snapshot (maybe still being taken); undefined before the first and after a run's end. */
  private tip: Promise<Snapshot> | undefined;
  /** Files the file tools wrote since the latest checkpoint. */
  private written = new Set<string>();
  private running: FullSnapshot[] = [];
  /**
   * Checkpoints in the log without their tree yet (its snapshot still being taken), each with the
   * files written since it was opened: a file's first write after it is recorded as its pre-image
   * first, so a process killed before the tree is in the log leaves what a rewind needs.
   */
  private awaiting = new Map<Checkpoint, Set<string>>();
  /** Whole-tree snapshots one at a time: they share the shadow index. */
  private fullQueue: Promise<unknown> = Promise.resolve();
  /** Log entries in turn order, whatever order their snapshots finish in. */
  private logQueue: Promise<unknown> = Promise.resolve();
  private readonly take: (git: ShadowGit, maxFileBytes?: number) => Promise<Snapshot>;
  private readonly realWorkTree: string;

  constructor(private readonly options: CheckpointOptions) {
    this.git = new ShadowGit(join(checkpointsDir(options.workspace, options.env), 'git'), options.workspace, ownStateDirs(options.env ?? process.env));
    this.log = new CheckpointLog(options.workspace, options.sessionId, options.env);
    this.take = options.takeSnapshot ?? takeSnapshot;
    this.realWorkTree = realOrAsIs(options.workspace);
  }

  /** Whether this object has taken (or reused) a snapshot for a turn whose tree a run's end can still stand on. */
  hasSnapshot(): boolean {
    return this.tip !== undefined;
  }

  /** A snapshot of the whole workspace, as it was when it began (file-tool writes meanwhile undone in its tree). */
  snapshot(): Promise<Snapshot> {
    return this.startFull().done.then((snapshot) => snapshot);
  }

  private startFull(): FullSnapshot {
    const window = new Map<string, Promise<Capture>>();
    const full: FullSnapshot = { window, done: Promise.resolve(undefined as unknown as Snapshot) };
    this.running.push(full);
    const taken = this.fullQueue.then(() => this.take(this.git, this.options.maxFileBytes));
    this.fullQueue = taken.catch(() => undefined);
    full.done = taken
      .finally(() => {
        // Writes from now on are after the snapshot read the tree: no longer its concern.
        this.running = this.running.filter((other) => other !== full);
      })
      .then(async (snapshot) => (window.size ? overlayTree(this.git, snapshot, await settle(window)) : snapshot));
    full.done.catch(() => undefined);
    return full;
  }

  /**
   * Just before a file tool writes `absolute`: its earlier content goes into the store now if a
   * whole-tree snapshot is running (which may read the file after the write), and the file is noted
   * for the next checkpoint.
   */
  async beforeWrite(absolute: string): Promise<void> {
    // The file tools name a file by its real path; the workspace may be given through a link.
    const path = [this.git.workTree, this.realWorkTree].map((tree) => relative(tree, absolute)).find((inside) => inside !== '' && !inside.startsWith('..') && !isAbsolute(inside));
    if (path === undefined) return;
    const slashed = path.split(sep).join('/');
    this.written.add(slashed);
    const waits: Array<Promise<Capture>> = [];
    // Its content just before this write, read once however many need it.
    let now: Promise<Capture> | undefined;
    const capture = () => (now ??= capturePath(this.git, slashed, this.maxFileBytes()));
    for (const { window } of this.running) {
      if (!window.has(slashed)) window.set(slashed, capture());
      waits.push(window.get(slashed)!);
    }
    const owed = [...this.awaiting].filter(([, logged]) => !logged.has(slashed));
    for (const [, logged] of owed) logged.add(slashed);
    if (owed.length) {
      // In the log before the write goes ahead.
      waits.push(
        capture().then((captured) => {
          if (captured.kind !== 'skip') for (const [entry] of owed) this.log.preImage(entry.n, slashed, captured);
          return captured;
        }),
      );
    }
    await Promise.all(waits);
  }

  /**
   * Before a turn's tools run. `reuseTree`: nothing since the last checkpoint of this run could have
   * changed a file, so its tree is this turn's too. `whole`: something other than the file tools may
   * have changed files since (or this is the run's first): the whole workspace is snapshotted
   * (`begun`: one already begun while the turn's request was out); else the last tree with the files
   * written since. `waitForWhole`: the turn's tools may change any file, so they wait until the
   * whole-tree snapshots running have read the tree.
   */
  beginTurn(point: { run: number; turn: number; prompt: string }, options: { reuseTree?: boolean; whole?: boolean; begun?: Promise<Snapshot>; waitForWhole?: boolean } = {}): TurnCheckpoint {
    let tree: Promise<Snapshot>;
    let ready: Promise<unknown> = Promise.resolve();
    // Written at once, in turn order; its tree follows when known.
    const opened = this.log.open({ kind: 'turn', ...point });
    this.awaiting.set(opened, new Set());
    if (options.reuseTree && this.tip) {
      tree = this.tip;
    } else if (options.whole || !this.tip) {
      this.written.clear();
      tree = options.begun ?? this.snapshot();
    } else {
      const captured = this.captureWritten();
      ready = captured;
      const previous = this.tip;
      tree = Promise.all([previous, captured]).then(([base, captures]) => overlayTree(this.git, base, captures));
    }
    tree.catch(() => undefined);
    this.tip = tree;
    const recorded = this.inOrder(async () => this.log.complete(opened, await tree));
    const settled = () => this.awaiting.delete(opened);
    recorded.then(settled, settled);
    // A command runs once the tree is read and its checkpoint complete in the log: no pre-image records what it changes.
    if (options.waitForWhole) ready = Promise.all([ready, this.fullQueue, recorded]);
    // Its failure is the caller's to report (awaiting `recorded`); `ready` only says when the tools may run.
    return { ready: ready.then(() => undefined, () => undefined), recorded };
  }

  /** Before a turn's tools run, once its checkpoint is in the log (see beginTurn). */
  async beforeTurn(point: { run: number; turn: number; prompt: string }, options: { reuseTree?: boolean; begun?: Promise<Snapshot> } = {}): Promise<Checkpoint> {
    return this.beginTurn(point, { ...options, whole: true }).recorded;
  }

  /**
   * After a run: what the agent left, against which a user's later change is recognised: a whole-tree
   * snapshot (a checker or a hook may have written files no tool named), once every checkpoint of
   * the run is in the log. `unchanged`: nothing since the last checkpoint could have changed a file;
   * `begun` as in beginTurn.
   */
  async afterRun(options: { unchanged?: boolean; begun?: Promise<Snapshot> } = {}): Promise<void> {
    const tip = this.tip;
    if (tip === undefined) return;
    this.tip = undefined;
    this.written.clear();
    const left = options.unchanged ? tip : (options.begun ?? this.snapshot());
    await this.inOrder(async () => this.log.markLeft((await left).tree));
  }

  list(): Checkpoint[] {
    return this.log.read().checkpoints;
  }

  private maxFileBytes(): number {
    return this.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  }

  /** The files written since the last checkpoint, as they are now. */
  private async captureWritten(): Promise<Map<string, Capture>> {
    const paths = [...this.written];
    this.written.clear();
    const captures = new Map<string, Promise<Capture>>(paths.map((path) => [path, capturePath(this.git, path, this.maxFileBytes())]));
    return settle(captures);
  }

  private inOrder<T>(step: () => Promise<T>): Promise<T> {
    const result = this.logQueue.then(step);
    this.logQueue = result.catch(() => undefined);
    return result;
  }
}

async function settle(captures: ReadonlyMap<string, Promise<Capture>>): Promise<Map<string, Capture>> {
  const settled = new Map<string, Capture>();
  for (const [path, capture] of captures) settled.set(path, await capture);
  return settled;
}

/**
 * The CLI's own state, never snapshotted when the workspace holds it (a run in the home folder):
 * the data folder (sessions, this very store, the prompt history), the config folder and the cache,
 * each as given and as its real path.
 */
function ownStateDirs(env: NodeJS.ProcessEnv): string[] {
  return [...new Set([userDataDir(env), userConfigDir(env), userCacheDir(env)].flatMap((dir) => [dir, realOrAsIs(dir)]))];
}

function realOrAsIs(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
