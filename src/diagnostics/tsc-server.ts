import { spawn, type ChildProcess } from 'node:child_process';
import { killProcessTree } from '../tools/coding/shell/kill-tree.js';
import { noSandbox } from '../tools/coding/shell/shell-sandbox.js';
import type { CheckerRun, RunCheckerOptions } from './run-checker.js';
import { TSC_SERVER_END } from './tsc-server-script.js';

/** Text to check a file as instead of what is on disk (null: as if it did not exist): the old content, for a baseline after the write. */
export interface SourceOverlay {
  path: string;
  text: string | null;
}

/**
 * One long-lived checker process: started on the first check, asked again for each later one, and
 * stopped (to be started afresh next time) when a check overruns its time or is aborted.
 */
export class CheckerServer {
  private child: ChildProcess | undefined;
  private buffer = '';
  private waiting: ((output: string | undefined) => void) | undefined;

  constructor(private readonly argv: readonly string[]) {}

  check(options: RunCheckerOptions, overlay?: SourceOverlay): Promise<CheckerRun> {
    let child: ChildProcess;
    try {
      child = this.child ?? this.start(options);
    } catch (error) {
      return Promise.resolve({ output: '', stopped: undefined, error: (error as Error).message });
    }
    return new Promise((resolve) => {
      let stopped: CheckerRun['stopped'];
      const stop = (why: 'time' | 'abort') => {
        stopped = why;
        this.stop();
      };
      const timer = setTimeout(() => stop('time'), options.timeoutMs);
      const onAbort = () => stop('abort');
      options.signal.addEventListener('abort', onAbort, { once: true });
      this.waiting = (output) => {
        clearTimeout(timer);
        options.signal.removeEventListener('abort', onAbort);
        this.waiting = undefined;
        resolve(output === undefined ? { output: '', stopped: stopped ?? undefined, ...(stopped ? {} : { error: 'the checker exited' }) } : { output, stopped: undefined });
      };
      if (options.signal.aborted) onAbort();
      else child.stdin!.write(overlay ? `check ${JSON.stringify(overlay)}\n` : 'check\n');
    });
  }

  /** Ends the process (at the end of a run, or after an overrun). */
  stop(): void {
    const child = this.child;
    this.child = undefined;
    this.buffer = '';
    if (child?.pid !== undefined) void killProcessTree(child.pid, 500);
    this.waiting?.(undefined);
  }

  private start(options: RunCheckerOptions): ChildProcess {
    const [file, ...args] = (options.sandbox ?? noSandbox).wrap([...this.argv], options.cwd);
    const child = spawn(file!, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'ignore'], detached: true });
    // The process must not keep the agent alive once the run is over.
    child.unref();
    for (const stream of [child.stdin, child.stdout]) (stream as unknown as { unref?: () => void }).unref?.();
    child.stdin!.on('error', () => {});
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      this.buffer += chunk;
      const end = this.buffer.indexOf(`${TSC_SERVER_END}\n`);
      if (end < 0) return;
      const output = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + TSC_SERVER_END.length + 1);
      this.waiting?.(output);
    });
    const gone = () => {
      if (this.child === child) this.child = undefined;
      this.waiting?.(undefined);
    };
    child.once('error', gone);
    child.once('exit', gone);
    this.child = child;
    return child;
  }
}
