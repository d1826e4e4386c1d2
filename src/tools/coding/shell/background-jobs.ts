import type { ChildProcess } from 'node:child_process';
import { killProcessTree } from './kill-tree.js';
import { installExitCleanup } from './exit-cleanup.js';
import { groupAlive } from './kill-tree.js';

/** What one `bash_output` call returns at most; the rest waits for the next read. */
export const MAX_READ_CHARS = 20_000;
/** Unread output kept per job; older unread output is dropped (and counted). */
const KEEP_UNREAD_CHARS = 1_000_000;

export interface BackgroundJobSummary {
  id: string;
  command: string;
  pid: number;
  running: boolean;
  /** The shell's exit code once it exited (null: killed by a signal). */
  exitCode?: number | null;
  startedAt: number;
}

export interface BackgroundRead {
  output: string;
  /** Unread output that was dropped because the job wrote faster than it was read. */
  droppedChars: number;
  running: boolean;
  exitCode?: number | null;
  signal?: NodeJS.Signals | null;
}

interface Job {
  id: string;
  command: string;
  child: ChildProcess;
  pid: number;
  startedAt: number;
  unread: string;
  dropped: number;
  exit?: { code: number | null; signal: NodeJS.Signals | null };
}

/**
 * The shell commands left running: started with `run_in_background`, or the daemons a foreground
 * command left behind. Each is a process group (spawned detached), so killing one kills its tree.
 * Every group still alive is killed when this process exits, by whatever path (see exit-cleanup).
 */
export class BackgroundJobs {
  private readonly jobs = new Map<string, Job>();
  private nextId = 1;
  private readonly listeners = new Set<() => void>();

  /** Takes over a detached child whose stdout/stderr are pipes; `earlier` is output already seen elsewhere. */
  adopt(child: ChildProcess, command: string): string {
    if (child.pid === undefined) throw new Error('adopt: the child has no pid');
    const id = `bg${this.nextId++}`;
    const job: Job = { id, command, child, pid: child.pid, startedAt: Date.now(), unread: '', dropped: 0 };
    if (child.exitCode !== null || child.signalCode !== null) job.exit = { code: child.exitCode, signal: child.signalCode };
    this.jobs.set(id, job);
    installExitCleanup(this);
    const append = (chunk: string) => {
      job.unread += chunk;
      if (job.unread.length > 2 * KEEP_UNREAD_CHARS) {
        job.dropped += job.unread.length - KEEP_UNREAD_CHARS;
        job.unread = job.unread.slice(-KEEP_UNREAD_CHARS);
      }
    };
    for (const stream of [child.stdout, child.stderr]) {
      stream?.setEncoding('utf8');
      stream?.on('data', append);
      // A job must never keep the CLI alive: its process group is killed on exit instead.
      (stream as unknown as { unref?: () => void } | null)?.unref?.();
    }
    child.once('exit', (code, signal) => {
      job.exit = { code, signal };
      this.changed();
    });
    child.unref();
    this.changed();
    return id;
  }

  /** New output since the last read (at most MAX_READ_CHARS; the rest stays unread). */
  read(id: string): BackgroundRead | undefined {
    const job = this.jobs.get(id);
    if (!job) return undefined;
    const output = job.unread.slice(0, MAX_READ_CHARS);
    job.unread = job.unread.slice(output.length);
    const dropped = job.dropped;
    job.dropped = 0;
    const running = this.isRunning(job);
    return { output, droppedChars: dropped, running, ...(job.exit ? { exitCode: job.exit.code, signal: job.exit.signal } : {}) };
  }

  unreadChars(id: string): number {
    return this.jobs.get(id)?.unread.length ?? 0;
  }

  /** Kills the job's whole process group; false when there is no such job. */
  async kill(id: string): Promise<boolean> {
    const job = this.jobs.get(id);
    if (!job) return false;
    await killProcessTree(job.pid);
    this.changed();
    return true;
  }

  list(): BackgroundJobSummary[] {
    return [...this.jobs.values()].map((job) => ({
      id: job.id,
      command: job.command,
      pid: job.pid,
      running: this.isRunning(job),
      startedAt: job.startedAt,
      ...(job.exit ? { exitCode: job.exit.code } : {}),
    }));
  }

  /** How many jobs still have a living process. */
  runningCount(): number {
    return this.list().filter((job) => job.running).length;
  }

  /** The process groups to kill on exit: every job's, alive or not (signalling a gone group is harmless). */
  groups(): number[] {
    return [...this.jobs.values()].map((job) => job.pid);
  }

  /** Kills every job (awaitable form, for library users and tests). */
  async killAll(): Promise<void> {
    await Promise.all([...this.jobs.keys()].map((id) => this.kill(id)));
  }

  /** Called whenever a job starts or ends (the status line listens). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private isRunning(job: Job): boolean {
    // The shell may have exited while what it started lives on in its group (a daemon).
    return job.exit === undefined || groupAlive(job.pid);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

/** The process-wide table the CLI's shell tools share. */
export const backgroundJobs = new BackgroundJobs();
