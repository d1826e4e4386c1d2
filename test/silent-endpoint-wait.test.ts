/**
 * Issue 41 point 2, end to end in a terminal (tmux): a one-shot run against an endpoint that accepts
 * and never answers is never a silent wait — stderr shows a spinner and the time waited — and it
 * stops at the first-byte limit with a message naming the cause and the setting, after one request.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startChatServer, type ServerStep } from './support/chat-server.js';
import { CLI } from './support/cli-process.js';
import { cleanupAfterEach, requireTmux, startInTmux } from './support/tmux.js';
import { terminalEnv } from './support/tui-session.js';

const cleanups = cleanupAfterEach();
requireTmux();

async function oneShot(script: ServerStep[], args: string[], extraEnv: Record<string, string>) {
  const server = await startChatServer(script);
  cleanups.push(() => server.close());
  const home = mkdtempSync(join(tmpdir(), 'vibe-wait-'));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  const workspace = join(home, 'project');
  mkdirSync(workspace);
  const pane = await startInTmux([process.execPath, CLI, ...args], { cwd: workspace, width: 160, height: 40, env: terminalEnv(home, server.url, extraEnv) });
  cleanups.push(() => pane.kill());
  return { server, pane, workspace };
}

describe('a one-shot run never waits in silence', () => {
  it('shows a spinner with the time waited, then stops at the first-byte limit with the reason, not retried', async () => {
    // The limit is how long the spinner stays to be read: at load 20 a 4 s window could pass between two reads of the pane.
    const { server, pane } = await oneShot([{ kind: 'silent' }], ['say hello', '--no-session'], { VIBE_FIRST_BYTE_TIMEOUT: '8' });
    const waiting = await pane.waitFor(/Waiting for the model… \d+\.\d s · Ctrl-C stops/);
    expect(waiting).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Waiting for the model… \d+\.\d s · Ctrl-C stops/m);
    expect(await pane.waitForExit(60_000)).toBe(1);
    // The pane wraps the long line at its width: joined again here.
    const screen = (await pane.screen()).replaceAll('\n', '');
    expect(screen).toContain(
      '✗ Stopped: the provider failed. openai: the server accepted the connection but sent nothing for 8 s (the first-byte limit); gave up waiting. Is the endpoint right, and is the model loaded? A server that needs longer before its first byte: VIBE_FIRST_BYTE_TIMEOUT=<seconds> or --first-byte-timeout <seconds>.',
    );
    // The wait line is erased, never left in the scrollback.
    expect(screen).not.toContain('Waiting for the model');
    expect(server.requests).toHaveLength(1);
  });

  it('a tool that runs shows its name, its arguments and the time it has run, and the line goes once it ends', async () => {
    // The command runs until the test has read its line (a fixed sleep could end between two reads of the pane at load).
    const { pane, workspace } = await oneShot(
      [{ toolCalls: [{ name: 'bash', arguments: { command: 'until [ -e go ]; do sleep 0.1; done; echo slept' } }] }, { text: 'It slept.' }],
      ['sleep a bit', '--no-session', '--yes', '--sandbox', 'off'],
      {},
    );
    const running = await pane.waitFor(/Running bash command="until \[ -e go \]; do sleep 0\.1; done; echo slept"… \d+\.\d s · Ctrl-C stops/);
    expect(running).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Running bash command=/m);
    writeFileSync(join(workspace, 'go'), '');
    expect(await pane.waitForExit()).toBe(0);
    const screen = await pane.screen();
    expect(screen).toContain('It slept.');
    expect(screen).not.toContain('Running bash');
  });
});
