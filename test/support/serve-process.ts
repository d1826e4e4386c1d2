/** The built `vibe-agent serve` (dist/cli/main.js) as a child process, for end-to-end tests of the server. */
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI } from './cli-process.js';

export interface ServeProcess {
  url: string;
  /** The token line's value, when this start made the token (printed once). */
  printedToken: string | undefined;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** SIGKILL (a crash), resolved when the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM, resolved with the exit code. */
  stop(): Promise<number | null>;
}

/** Starts the server on a free port and resolves once it prints where it listens (rejects if it exits first). */
export function startServe(args: string[], options: { cwd: string; env: Record<string, string> }): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { cwd: options.cwd, env: { NO_COLOR: '1', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (data) => (stderr += data));
    child.stdout!.on('data', (data) => {
      stdout += data;
      const url = /^Listening on (\S+)$/m.exec(stdout)?.[1];
      const tokenLine = /^Token(?: \(saved in .*, shown only now\))?: (.+)$/m.exec(stdout);
      if (url && tokenLine) {
        resolve({
          url,
          printedToken: tokenLine[0].includes('shown only now') ? tokenLine[1] : undefined,
          child,
          stdout: () => stdout,
          stderr: () => stderr,
          kill: async () => {
            child.kill('SIGKILL');
            await exited;
          },
          stop: async () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    void exited.then((code) => reject(new Error(`vibe-agent serve exited (${code}) before listening:\n${stderr}`)));
  });
}
