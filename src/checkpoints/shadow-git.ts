import { execFile } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';

export interface GitResult {
  stdout: string;
  code: number;
  stderr: string;
}

/**
 * Runs git on a shadow repository: its own GIT_DIR under the data directory and the workspace as
 * the work tree, so the user's `.git` (and their index, stash, hooks) is never read or touched.
 */
export class ShadowGit {
  private excludesWritten = false;

  /** `excluded`: folders never snapshotted (our own data folder, when it lies inside the workspace). */
  constructor(
    readonly gitDir: string,
    readonly workTree: string,
    private readonly excluded: readonly string[] = [],
  ) {}

  /** Creates the repository once; settings keep it fast and keep git from pruning our trees. */
  async ensure(): Promise<void> {
    if (existsSync(join(this.gitDir, 'HEAD'))) return this.writeExcludes();
    mkdirSync(this.gitDir, { recursive: true, mode: 0o700 });
    await this.must(['init', '-q']);
    // Written as text rather than by a `git config` process per key: ensure() is on the first turn's path.
    appendFileSync(join(this.gitDir, 'config'), SHADOW_CONFIG);
    this.writeExcludes();
  }

  /**
   * The excluded folders inside the work tree, as anchored patterns in info/exclude. Running in a
   * home folder puts the data folder (sessions, this very store) inside the workspace: a snapshot
   * must not hold it, nor a rewind delete a session file "the agent created".
   */
  private writeExcludes(): void {
    if (this.excludesWritten) return;
    const lines = this.excludedInside().map((path) => `/${path.replace(/[\\*?[\]!#\s]/g, '\\$&')}/`);
    // The file tools' own atomic writes (`.NAME.PID.8HEX.tmp`, src/tools/coding/shared/atomic-write.ts) exist
    // for an instant; a snapshot running beside one must not record it as a file the agent made.
    lines.push(`.*.[0-9]*.${'[0-9a-f]'.repeat(8)}.tmp`);
    mkdirSync(join(this.gitDir, 'info'), { recursive: true });
    writeFileSync(join(this.gitDir, 'info', 'exclude'), lines.map((line) => `${line}\n`).join(''));
    this.excludesWritten = true;
  }

  /** The excluded folders that lie inside the work tree, relative to it with `/` (the tree as given, or its real path). */
  excludedInside(): string[] {
    const trees = [...new Set([this.workTree, realOrAsIs(this.workTree)])];
    const paths = this.excluded.flatMap((dir) => trees.map((tree) => relative(tree, dir))).filter((path) => path !== '' && !path.startsWith('..') && !isAbsolute(path));
    return [...new Set(paths.map((path) => path.split(sep).join('/')))];
  }

  /** `indexFile`: another index than the store's own (a tree built aside). */
  run(args: string[], input?: string, options: { indexFile?: string } = {}): Promise<GitResult> {
    return new Promise((resolve) => {
      const child = execFile(
        'git',
        args,
        {
          cwd: this.workTree,
          env: { ...gitEnv(), GIT_DIR: this.gitDir, GIT_WORK_TREE: this.workTree, ...(options.indexFile ? { GIT_INDEX_FILE: options.indexFile } : {}) },
          maxBuffer: 256 * 1024 * 1024,
          // A backstop: a special file deeper in the tree (a FIFO git opens) must not freeze the run.
          timeout: GIT_TIMEOUT_MS,
          killSignal: 'SIGKILL',
          encoding: 'utf8',
        },
        (error, stdout, stderr) => {
          if (error?.signal === 'SIGKILL' && writesIndex(args)) dropOrphanedLock(options.indexFile ?? join(this.gitDir, 'index'));
          const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : 1) : 0;
          resolve({ stdout, stderr: stderr || (error && code === 1 && !stderr ? error.message : ''), code });
        },
      );
      if (input !== undefined) child.stdin?.end(input);
    });
  }

  async must(args: string[], input?: string, options: { indexFile?: string } = {}): Promise<string> {
    const result = await this.run(args, input, options);
    if (result.code !== 0) throw new Error(`git ${args[0]} failed in the checkpoint store: ${result.stderr.trim() || `exit ${result.code}`}`);
    return result.stdout;
  }

  /** Like must, with the output as bytes (blob contents are not text). */
  mustBytes(args: string[], input: string): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const child = execFile(
        'git',
        args,
        { cwd: this.workTree, env: { ...gitEnv(), GIT_DIR: this.gitDir, GIT_WORK_TREE: this.workTree }, maxBuffer: 1024 * 1024 * 1024, timeout: GIT_TIMEOUT_MS, killSignal: 'SIGKILL', encoding: 'buffer' },
        (error, stdout, stderr) => (error ? reject(new Error(`git ${args[0]} failed in the checkpoint store: ${stderr.toString().trim() || error.message}`)) : resolve(stdout)),
      );
      child.stdin?.end(input);
    });
  }
}

/**
 * git holds `index.lock` while it writes the index and removes it on exit or on a signal it can
 * catch; a SIGKILL (the backstop timeout, the OOM killer) leaves it, and every later snapshot of the
 * store would then fail on it. git does not wait for a held lock (it fails at once), so a lock there
 * after one of ours that writes the index was killed mid-work is the one it took. Objects need
 * nothing: a pack is in use only once its .idx is renamed into place, so a half-written one is a
 * stray temporary file, which the next add removes (stale-pack-temps.ts).
 */
function dropOrphanedLock(indexFile: string): void {
  rmSync(`${indexFile}.lock`, { force: true });
}

/** The commands the store runs that lock the index (another one killed, its lock may be a live command's of ours). */
function writesIndex(args: string[]): boolean {
  const command = args.find((arg, i) => arg !== '-c' && args[i - 1] !== '-c');
  return command !== undefined && INDEX_WRITERS.has(command);
}

const INDEX_WRITERS = new Set(['add', 'rm', 'read-tree', 'update-index', 'write-tree']);

/** Settings that keep the store fast and keep git from pruning our trees. */
const SHADOW_CONFIG = `[core]
\tautocrlf = false
\tsafecrlf = false
\tquotePath = false
\tuntrackedCache = true
\tfsmonitor = false
\thooksPath = /dev/null
[feature]
\t# Index v4 (smaller, faster to write).
\tmanyFiles = true
[index]
\t# Git 2.40 and later skip hashing the index on write.
\tskipHash = true
[gc]
\t# Snapshots are loose trees nothing points at; automatic gc would prune them.
\tauto = 0
[advice]
\taddEmbeddedRepo = false
[user]
\tname = vibe-agent
\temail = checkpoints@vibe-agent.invalid
`;

/** Longer than any snapshot of a large workspace on a loaded machine (the first of 10,000 files: ~10 s). */
const GIT_TIMEOUT_MS = 120_000;

/** The environment without the user's GIT_* variables (a GIT_INDEX_FILE would redirect ours). */
function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_OPTIONAL_LOCKS = '0';
  return env;
}

function realOrAsIs(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** NUL-separated git output as a list. */
export function nulList(text: string): string[] {
  return text.split('\0').filter((item) => item !== '');
}
