/**
 * Drives a program in a real terminal: a detached tmux session on its own server socket (`-L`),
 * so tests never touch the user's tmux and are cleaned up by killing that server.
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { afterEach } from 'vitest';

const run = promisify(execFile);
const TMUX_CALL_MS = 30_000;

export interface TmuxPane {
  socket: string;
  /** The visible screen, plain text; with `escapes`, with its colour sequences. */
  screen(options?: { escapes?: boolean }): Promise<string>;
  /** Pastes text the way a terminal does (bracketed, when the program asked for it). */
  paste(text: string): Promise<void>;
  resize(width: number, height: number): Promise<void>;
  /** tmux key names or literal text (`literal: true`). */
  send(keys: string[], options?: { literal?: boolean }): Promise<void>;
  /** Polls the screen until `test` passes; fails with the last screen when the deadline passes. */
  waitFor(test: string | RegExp | ((screen: string) => boolean), timeoutMs?: number): Promise<string>;
  /** Exit status once the program has ended, else undefined. */
  exitStatus(): Promise<number | undefined>;
  /** Waits for the program to end and returns its exit status. */
  waitForExit(timeoutMs?: number): Promise<number>;
  kill(): Promise<void>;
}

export async function startInTmux(command: string[], options: { env: Record<string, string>; cwd: string; width?: number; height?: number }): Promise<TmuxPane> {
  const socket = `vibe-test-${process.pid}-${randomBytes(4).toString('hex')}`;
  // Each tmux call is bounded: a client that never answers fails naming its command, not the test's timeout.
  const tmux = (...args: string[]) =>
    run('tmux', ['-L', socket, '-f', '/dev/null', ...args], { env: { ...process.env, TMUX: '' }, timeout: TMUX_CALL_MS, killSignal: 'SIGKILL' }).catch((error: { killed?: boolean }) => {
      throw error.killed ? new Error(`tmux ${args[0]} did not answer within ${TMUX_CALL_MS} ms`) : error;
    });
  const envArgs = Object.entries(options.env).map(([key, value]) => `${key}=${value}`);
  // A shell around the program prints its exit status and keeps the pane (and its last screen)
  // until the server is killed; tmux's own pane_dead_status is not reliable across versions. It
  // traps Ctrl-C (SIGINT reaches the whole foreground group when the program reads in line mode),
  // so only the program decides what Ctrl-C does; a trapped signal is default again in the child.
  const wrapper = 'trap : INT; env -i "$@"; status=$?; printf "\\n[exited %d]\\n" "$status"; exec sleep 3600';
  await tmux(
    'new-session', '-d', '-s', 'main', '-x', String(options.width ?? 100), '-y', String(options.height ?? 30), '-c', options.cwd,
    'sh', '-c', wrapper, 'sh', ...envArgs, ...command,
  );

  const pane: TmuxPane = {
    socket,
    async screen(screenOptions = {}) {
      const { stdout } = await tmux('capture-pane', '-p', ...(screenOptions.escapes ? ['-e'] : []), '-t', 'main');
      return stdout;
    },
    async paste(text) {
      await tmux('set-buffer', '-b', 'test', text);
      await tmux('paste-buffer', '-p', '-d', '-b', 'test', '-t', 'main');
    },
    async resize(width, height) {
      await tmux('resize-window', '-t', 'main', '-x', String(width), '-y', String(height));
    },
    async send(keys, sendOptions = {}) {
      await tmux('send-keys', '-t', 'main', ...(sendOptions.literal ? ['-l'] : []), ...keys);
    },
    async waitFor(test, timeoutMs = 30_000) {
      const check = typeof test === 'function' ? test : (screen: string) => (typeof test === 'string' ? screen.includes(test) : test.test(screen));
      const deadline = Date.now() + timeoutMs;
      let last = '';
      for (;;) {
        last = await pane.screen();
        if (check(last)) return last;
        if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${String(test)}. Screen:\n${last}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async exitStatus() {
      const match = /\[exited (\d+)\]/.exec(await pane.screen());
      return match ? Number(match[1]) : undefined;
    },
    async waitForExit(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const status = await pane.exitStatus();
        if (status !== undefined) return status;
        if (Date.now() > deadline) throw new Error(`The program did not exit within ${timeoutMs} ms. Screen:\n${await pane.screen()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async kill() {
      await tmux('kill-server').catch(() => undefined);
    },
  };
  return pane;
}

/**
 * The terminal tests drive a real tmux; without it they fail with this message rather than skip
 * silently (`.ci/run` installs tmux when it is missing).
 */
export function requireTmux(): void {
  try {
    execFileSync('tmux', ['-V']);
  } catch {
    throw new Error('tmux is not installed: the terminal UI tests need it (apt-get install tmux; .ci/run does this).');
  }
}

/** Cleanups registered during a test, run in reverse order after it. */
export function cleanupAfterEach(): Array<() => Promise<void> | void> {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return cleanups;
}
