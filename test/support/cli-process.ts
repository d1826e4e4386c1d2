/** Spawns the built CLI (dist/cli/main.js) in a throwaway home, for end-to-end tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sessionsDir } from '../../src/session/paths.js';

export const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');

export interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliHome {
  root: string;
  /** The workspace the CLI runs in (its cwd). */
  workspace: string;
  env: { HOME: string; XDG_CONFIG_HOME: string; XDG_DATA_HOME: string } & Record<string, string>;
  run(args: string[], extraEnv?: Record<string, string>, onSpawn?: (child: ChildProcess) => void): Promise<Ran>;
  /** `run`, killed and failed naming `step` when it has not ended within `timeoutMs` (a hang fails fast and says where). */
  runWithin(args: string[], step: string, timeoutMs?: number): Promise<Ran>;
  /** This workspace's session files (`*.jsonl`), by name. */
  sessionFiles(): string[];
  sessionPath(name: string): string;
  cleanup(): void;
}

/**
 * Runs the built CLI once in `cwd`, with only PATH and `env` (plus NO_COLOR) in its environment. With
 * `limit`, a run still going after `limit.ms` is killed and the promise fails naming `limit.step`.
 */
export function spawnCli(args: string[], options: { cwd: string; env?: Record<string, string>; onSpawn?: (child: ChildProcess) => void; limit?: { ms: number; step: string } }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    const { limit } = options;
    const timer =
      limit &&
      setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`${limit.step}: \`vibe-agent ${args.join(' ')}\` had not ended after ${limit.ms} ms (killed); stdout: ${stdout.slice(-2000) || '(none)'}; stderr: ${stderr.slice(-2000) || '(none)'}`));
      }, limit.ms);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    options.onSpawn?.(child);
  });
}

/** A throwaway HOME (config under it) for CLI tests that need no session inspection. */
export function homeEnv(home: string): Record<string, string> {
  return { HOME: home, XDG_CONFIG_HOME: join(home, 'config') };
}

export function cliHome(): CliHome {
  const root = mkdtempSync(join(tmpdir(), 'vibe-session-cli-'));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: join(root, 'home'),
    XDG_CONFIG_HOME: join(root, 'config'),
    XDG_DATA_HOME: join(root, 'data'),
    NO_COLOR: '1',
  };
  const dir = () => sessionsDir(workspace, env);
  return {
    root,
    workspace,
    env,
    run: (args, extraEnv = {}, onSpawn) => spawnCli(args, { cwd: workspace, env: { ...env, ...extraEnv }, ...(onSpawn ? { onSpawn } : {}) }),
    runWithin: (args, step, timeoutMs = CLI_SESSION_TIMEOUT_MS) => spawnCli(args, { cwd: workspace, env, limit: { ms: timeoutMs, step } }),
    sessionFiles: () => {
      try {
        return readdirSync(dir()).filter((name) => name.endsWith('.jsonl')).sort();
      } catch {
        return [];
      }
    },
    sessionPath: (name) => join(dir(), name),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Polls a condition until it holds (a file appearing, a line written), failing after `timeoutMs`. */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
}

/** waitFor for a condition that must be asked for (a server's answer). */
export async function waitForAsync(condition: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
}

/** `promise`, or a failure naming `step` once `timeoutMs` has passed without it settling (for an await that has no bound of its own). */
export function within<T>(promise: Promise<T>, step: string, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${step}: nothing after ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** For tests that spawn the CLI several times in a row: up to 7 s each seen at load 5 on 2 cores, so 20 s is too close. */
export const CLI_SESSION_TIMEOUT_MS = 60_000;
