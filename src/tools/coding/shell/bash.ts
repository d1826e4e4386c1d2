import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { defineTool } from '../../define-tool.js';
import type { Tool, ToolOutput } from '../../../contracts/tool.js';
import { backgroundJobs, type BackgroundJobs } from './background-jobs.js';
import { groupAlive, killProcessTree } from './kill-tree.js';
import { noSandbox, shellArgv, type ShellSandbox } from './shell-sandbox.js';
import { shellEnvironment, type ShellEnvOptions } from './shell-env.js';

export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
export const MAX_BASH_TIMEOUT_MS = 600_000;
/**
 * In-memory bound on the collected output: the first and last this many characters are kept.
 * The result is not cut further here: the registry's cap stores it whole for read_output.
 */
const KEEP_CHARS = 1_000_000;
/** How long to wait for the pipes to close after the shell exits and its group was killed. */
const PIPE_CLOSE_GRACE_MS = 500;
/**
 * After the shell exits, how long its pipes may stay open before whatever still holds them (a
 * `server &`) is handed to the background jobs, so the call returns instead of hanging.
 */
const LEFTOVER_GRACE_MS = 300;

export interface ShellToolOptions extends ShellEnvOptions {
  /** Where background commands and leftovers go (default: the process-wide table). */
  jobs?: BackgroundJobs;
  /** Wraps each command (bubblewrap on Linux); default none. */
  sandbox?: ShellSandbox;
}

export const createBashTool = (options: ShellToolOptions = {}): Tool => {
  const jobs = options.jobs ?? backgroundJobs;
  const sandbox = options.sandbox ?? noSandbox;
  return defineTool({
  name: 'bash',
  description:
    'Run a shell command (bash -c) in the workspace. No interactive input. Returns stdout and stderr interleaved, capped head+tail, then the exit code (omitted when 0 with output). Time-out 120000 ms by default, max 600000; kills the whole tree. run_in_background: returns an id at once (read with bash_output, stop with bash_kill); use it for servers and watchers.',
  parameters: (z) => z.object({
    command: z.string().min(1),
    timeout_ms: z.number().int().positive().max(MAX_BASH_TIMEOUT_MS).optional(),
    run_in_background: z.boolean().optional(),
  }),
  readOnly: false,
  permission: { category: 'execute', aliases: ['shell'], subject: ({ command }) => ({ kind: 'shell-command', value: command }) },
  // Above the longest per-call time-out, so our own time-out (which kills the tree) fires first.
  timeoutMs: MAX_BASH_TIMEOUT_MS + 10_000,
  preview: async ({ command, timeout_ms, run_in_background }) => ({
    summary: command,
    ...(run_in_background ? { detail: 'in the background' } : timeout_ms ? { detail: `time-out ${timeout_ms} ms` } : {}),
  }),
  execute: ({ command, timeout_ms, run_in_background }, { signal, workspace }) =>
    run_in_background
      ? startInBackground(command, { cwd: workspace, jobs, sandbox, env: shellEnvironment(process.env, options) })
      : runShellCommand(command, { cwd: workspace, signal, timeoutMs: timeout_ms ?? DEFAULT_BASH_TIMEOUT_MS, env: shellEnvironment(process.env, options), jobs, sandbox }),
  });
};

/** The bash tool on the process-wide background jobs, without a sandbox. */
export const bashTool = createBashTool();

export interface ShellRunOptions {
  cwd: string;
  signal: AbortSignal;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  jobs?: BackgroundJobs;
  sandbox?: ShellSandbox;
}

function spawnShell(command: string, cwd: string, sandbox: ShellSandbox, env: NodeJS.ProcessEnv): ChildProcess {
  const { argv, exitOnFd3 } = shellArgv(sandbox, [findShell(), '-c', command], cwd);
  const [file, ...args] = argv;
  const child = spawn(file!, args, {
    cwd,
    env,
    stdio: exitOnFd3 ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  // Read (a background job never looks at it) and never what keeps the CLI alive, like a job's output.
  const status = child.stdio[3] as (NodeJS.ReadableStream & { unref?: () => void }) | null | undefined;
  status?.resume();
  status?.unref?.();
  return child;
}

/** Calls `exited` once: when the shell's exit status arrives on fd 3 (a sandbox that outlives the shell), else when the process exits. */
function onShellExit(child: ChildProcess, exited: (code: number | null, signal: NodeJS.Signals | null) => void): void {
  let told = false;
  const tell = (code: number | null, signal: NodeJS.Signals | null) => {
    if (told) return;
    told = true;
    exited(code, signal);
  };
  const status = child.stdio[3] as NodeJS.ReadableStream | null | undefined;
  if (status) {
    let text = '';
    status.setEncoding('utf8');
    status.on('data', (chunk: string) => {
      text += chunk;
      const line = /^(\d+)\n/.exec(text);
      if (line) tell(Number(line[1]), null);
    });
  }
  child.on('exit', tell);
}

function startInBackground(command: string, options: { cwd: string; jobs: BackgroundJobs; sandbox: ShellSandbox; env: NodeJS.ProcessEnv }): Promise<ToolOutput> {
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawnShell(command, options.cwd, options.sandbox, options.env);
    } catch (error) {
      resolve({ output: `Could not start the shell: ${(error as Error).message}`, isError: true });
      return;
    }
    child.once('error', (error) => resolve({ output: `Could not start the shell in ${options.cwd}: ${error.message}`, isError: true }));
    child.once('spawn', () => {
      const id = options.jobs.adopt(child, command);
      resolve(`started in the background as ${id} (pid ${child.pid}). Read its output with bash_output {"id":"${id}"}; stop it with bash_kill {"id":"${id}"}.`);
    });
  });
}

type Ending = { kind: 'exited'; code: number | null; signal: NodeJS.Signals | null } | { kind: 'timed_out' } | { kind: 'cancelled' };

export function runShellCommand(command: string, options: ShellRunOptions): Promise<ToolOutput> {
  if (options.signal.aborted) return Promise.resolve({ output: 'killed: cancelled before it started', isError: true });
  return new Promise((resolve) => {
    const output = new HeadTailBuffer(KEEP_CHARS);
    let child: ChildProcess;
    try {
      child = spawnShell(command, options.cwd, options.sandbox ?? noSandbox, options.env);
    } catch (error) {
      resolve({ output: `Could not start the shell: ${(error as Error).message}`, isError: true });
      return;
    }

    let ending: Ending | undefined;
    let exit: Ending | undefined;
    let settled = false;
    let killing: Promise<void> | undefined;
    let leftover: string | undefined;

    const finish = (spawnError?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      if (spawnError) {
        resolve({ output: `Could not start the shell in ${options.cwd}: ${spawnError.message}`, isError: true });
        return;
      }
      const final = ending ?? exit ?? { kind: 'exited', code: null, signal: null };
      const result = formatResult(output, final, options.timeoutMs, options.sandbox ?? noSandbox);
      resolve(leftover ? { output: `${result.output}\n${leftover}`, isError: result.isError } : result);
    };

    const stop = (reason: Ending) => {
      if (ending || settled || child.pid === undefined) return;
      ending = reason;
      killing = killProcessTree(child.pid).then(() => {
        // A process that left the group may still hold the pipes open; don't wait on it forever.
        setTimeout(() => {
          child.stdout?.destroy();
          child.stderr?.destroy();
          finish();
        }, PIPE_CLOSE_GRACE_MS).unref();
      });
    };

    const onAbort = () => stop({ kind: 'cancelled' });
    options.signal.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => stop({ kind: 'timed_out' }), options.timeoutMs);

    const collect = (chunk: string) => output.append(chunk);
    child.stdout?.setEncoding('utf8').on('data', collect);
    child.stderr?.setEncoding('utf8').on('data', collect);
    child.on('error', (error) => finish(error));
    onShellExit(child, (code, signal) => {
      exit = { kind: 'exited', code, signal };
      // The shell is done but something it started still holds the pipes: don't wait for it.
      setTimeout(() => {
        if (settled || ending || child.pid === undefined) return;
        child.stdout?.off('data', collect);
        child.stderr?.off('data', collect);
        if (groupAlive(child.pid)) {
          const id = (options.jobs ?? backgroundJobs).adopt(child, command);
          leftover = `[the command left processes running (pid group ${child.pid}); they go on as background job ${id}: bash_output {"id":"${id}"} reads their output, bash_kill {"id":"${id}"} stops them]`;
        } else {
          child.stdout?.destroy();
          child.stderr?.destroy();
        }
        finish();
      }, LEFTOVER_GRACE_MS).unref();
    });
    // 'close' waits for the pipes too, so output from background children is not lost.
    child.on('close', () => {
      if (killing) void killing.then(() => finish());
      else finish();
    });
  });
}

function formatResult(output: HeadTailBuffer, ending: Ending, timeoutMs: number, sandbox: ShellSandbox): { output: string; isError: boolean } {
  const { line, isError } = endingLine(ending, timeoutMs);
  const text = output.text();
  const footerLines = output.droppedChars > 0 ? [`[${output.totalChars} characters of output in all]`] : [];
  // A success says so by its flag: `exit code: 0` would cost ~6 tokens in every later request. Kept when nothing else is said.
  if (isError || text === '') footerLines.push(line);
  const refused = isError ? sandbox.explainFailure(text) : undefined;
  if (refused) footerLines.push(refused);
  const footer = footerLines.join('\n');
  const separator = text === '' || footer === '' || text.endsWith('\n') ? '' : '\n';
  return { output: text + separator + footer, isError };
}

function endingLine(ending: Ending, timeoutMs: number): { line: string; isError: boolean } {
  if (ending.kind === 'timed_out') return { line: `killed: timed out after ${timeoutMs} ms`, isError: true };
  if (ending.kind === 'cancelled') return { line: 'killed: cancelled', isError: true };
  if (ending.code === null) return { line: `killed by signal ${ending.signal ?? 'unknown'}`, isError: true };
  return { line: `exit code: ${ending.code}`, isError: ending.code !== 0 };
}

/** Keeps the first and the last `keep` characters of a stream, so memory stays bounded. */
export class HeadTailBuffer {
  private head = '';
  private tail = '';
  totalChars = 0;

  constructor(private readonly keep: number) {}

  append(chunk: string): void {
    this.totalChars += chunk.length;
    if (this.head.length < this.keep) {
      const room = this.keep - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
    }
    if (chunk === '') return;
    this.tail += chunk;
    // Trim only when twice the bound, so appends stay amortised O(chunk).
    if (this.tail.length > 2 * this.keep) this.tail = this.tail.slice(-this.keep);
  }

  get droppedChars(): number {
    return this.totalChars - this.head.length - Math.min(this.tail.length, this.keep);
  }

  text(): string {
    return this.head + this.tail.slice(-this.keep);
  }
}

let shell: string | undefined;

/** `bash` when it is on PATH, `sh` otherwise. */
function findShell(): string {
  if (shell) return shell;
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  const hasBash = dirs.some((dir) => {
    try {
      accessSync(join(dir, 'bash'), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
  shell = hasBash ? 'bash' : 'sh';
  return shell;
}
