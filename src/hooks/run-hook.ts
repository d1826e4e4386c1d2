import { spawn } from 'node:child_process';
import { childEnvironment } from '../tools/coding/shell/shell-env.js';

export interface HookRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Why it did not finish normally: a time-out, or a command that could not start. */
  failure?: string;
}

const MAX_OUTPUT = 1024 * 1024;

/**
 * Runs one hook command through the shell, the event's JSON on stdin. It is killed (with its
 * process group) at the time limit, so a hook that hangs never hangs the run.
 */
export function runHookCommand(command: string, input: unknown, options: { cwd: string; timeoutMs: number; env?: NodeJS.ProcessEnv }): Promise<HookRun> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd: options.cwd, env: { ...childEnvironment(options.env ?? process.env), CLAUDE_PROJECT_DIR: options.cwd }, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let failure: string | undefined;
    const timer = setTimeout(() => {
      failure = `it did not finish within ${options.timeoutMs / 1000} s and was stopped`;
      kill();
    }, options.timeoutMs);
    const kill = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    child.stdout.on('data', (chunk: Buffer) => (stdout = (stdout + chunk.toString()).slice(0, MAX_OUTPUT)));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(0, MAX_OUTPUT)));
    child.stdin.on('error', () => {});
    child.stdin.end(JSON.stringify(input));
    child.once('error', (error) => (failure = error.message));
    child.once('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, stdout, stderr, ...(failure ? { failure } : {}) });
    });
  });
}
