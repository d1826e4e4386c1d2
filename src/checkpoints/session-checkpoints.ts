import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { userCacheDir } from '../knowledge/knowledge-source.js';
import { userConfigDir } from '../memory/memory-paths.js';
import { userDataDir } from '../session/paths.js';
import { CheckpointLog, checkpointsDir, type Checkpoint } from './checkpoint-log.js';
import { ShadowGit } from './shadow-git.js';
import { takeSnapshot, type Snapshot } from './snapshot.js';

export interface CheckpointOptions {
  workspace: string;
  sessionId: string;
  env?: NodeJS.ProcessEnv;
  maxFileBytes?: number;
}

/** A session's checkpoints in a workspace: taking them, listing them, and the store they live in. */
export class SessionCheckpoints {
  readonly git: ShadowGit;
  readonly log: CheckpointLog;
  private lastTree: string | undefined;
  private last: Snapshot | undefined;

  constructor(private readonly options: CheckpointOptions) {
    this.git = new ShadowGit(join(checkpointsDir(options.workspace, options.env), 'git'), options.workspace, ownStateDirs(options.env ?? process.env));
    this.log = new CheckpointLog(options.workspace, options.sessionId, options.env);
  }

  /** Whether this object has taken (or reused) a snapshot for a turn whose tree a run's end can still stand on. */
  hasSnapshot(): boolean {
    return this.lastTree !== undefined;
  }

  snapshot(): Promise<Snapshot> {
    return takeSnapshot(this.git, this.options.maxFileBytes);
  }

  /**
   * Before a turn's tools run. `reuseTree`: nothing since the last snapshot of this run could have
   * changed a file, so that snapshot is this turn's too. `begun`: a snapshot taken since the last
   * change (while the turn's request was out), to use instead of taking one now.
   */
  async beforeTurn(point: { run: number; turn: number; prompt: string }, options: { reuseTree?: boolean; begun?: Promise<Snapshot> } = {}): Promise<Checkpoint> {
    const snapshot = options.reuseTree && this.last ? this.last : await (options.begun ?? this.snapshot());
    this.last = snapshot;
    this.lastTree = snapshot.tree;
    return this.log.add({ kind: 'turn', tree: snapshot.tree, tooLarge: snapshot.tooLarge, ...point });
  }

  /**
   * After a run: what the agent left, against which a user's later change is recognised.
   * `unchanged`: nothing since the last snapshot could have changed a file; `begun` as in beforeTurn.
   */
  async afterRun(options: { unchanged?: boolean; begun?: Promise<Snapshot> } = {}): Promise<void> {
    if (this.lastTree === undefined) return;
    const last = this.lastTree;
    this.lastTree = undefined;
    this.log.markLeft(options.unchanged ? last : (await (options.begun ?? this.snapshot())).tree);
  }

  list(): Checkpoint[] {
    return this.log.read().checkpoints;
  }
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
