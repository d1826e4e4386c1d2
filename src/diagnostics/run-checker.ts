import { spawn } from 'node:child_process';
import { killProcessTree } from '../tools/coding/shell/kill-tree.js';
import { noSandbox, type ShellSandbox } from '../tools/coding/shell/shell-sandbox.js';

/** The most output kept from one run; a checker flooding more is read only this far. */
const MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

export interface CheckerRun {
  /** stdout then stderr (go vet reports on stderr). */
  output: string;
  /** Cut off at the time limit, or by the call's abort signal. */
  stopped: 'time' | 'abort' | undefined;
  /** Could not start at all. */
  error?: string;
}

export interface RunCheckerOptions {
  cwd: string;
  /** Already stripped of the agent's secrets (shellEnvironment). */
  env: NodeJS.ProcessEnv;
  sandbox?: ShellSandbox;
  timeoutMs: number;
  signal: AbortSignal;
}

/** Runs a checker like a shell command: same environment, same sandbox, its whole process tree stopped at the limit. */
export function runChecker(argv: readonly string[], options: RunCheckerOptions): Promise<CheckerRun> {
  const [file, ...args] = (options.sandbox ?? noSandbox).wrap([...argv], options.cwd);
  return new Promise((resolve) => {
    const child = spawn(file!, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    const keep = (into: Buffer[]) => (chunk: Buffer) => {
      if (size >= MAX_OUTPUT_BYTES) return;
      size += chunk.length;
      into.push(chunk);
    };
    child.stdout.on('data', keep(out));
    child.stderr.on('data', keep(err));
    let stopped: CheckerRun['stopped'];
    const stop = (why: 'time' | 'abort') => {
      if (stopped || child.pid === undefined) return;
      stopped = why;
      void killProcessTree(child.pid, 500);
    };
    const timer = setTimeout(() => stop('time'), options.timeoutMs);
    const onAbort = () => stop('abort');
    options.signal.addEventListener('abort', onAbort, { once: true });
    if (options.signal.aborted) onAbort();
    const finish = (error?: string) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      const output = Buffer.concat(out).toString('utf8') + '\n' + Buffer.concat(err).toString('utf8');
      resolve({ output, stopped, ...(error ? { error } : {}) });
    };
    child.once('error', (error) => finish(error.message));
    child.once('close', () => finish());
  });
}
