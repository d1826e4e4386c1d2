import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChatServer, type ChatServer, type ChatServerOptions, type ServerStep } from './chat-server.js';
import { CLI } from './cli-process.js';
import { startInTmux, type TmuxPane } from './tmux.js';

/**
 * The built CLI's interactive session in a tmux pane, against a local Chat Completions server
 * replaying `script`; a fresh HOME with an empty `project` folder as the workspace.
 */
export async function tuiSession(
  cleanups: Array<() => Promise<void> | void>,
  script: ServerStep[],
  options: { args?: string[]; width?: number; height?: number; server?: ChatServerOptions; extraEnv?: Record<string, string> } = {},
): Promise<{ server: ChatServer; pane: TmuxPane; home: string; workspace: string }> {
  const server = await startChatServer(script, options.server);
  cleanups.push(() => server.close());
  const home = mkdtempSync(join(tmpdir(), 'vibe-tui-'));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  const workspace = join(home, 'project');
  mkdirSync(workspace);
  const pane = await startInTmux([process.execPath, CLI, ...(options.args ?? [])], {
    cwd: workspace,
    width: options.width ?? 110,
    height: options.height ?? 40,
    env: terminalEnv(home, server.url, options.extraEnv),
  });
  cleanups.push(() => pane.kill());
  return { server, pane, home, workspace };
}

/** The environment of the CLI in a tmux pane: a fresh HOME and config/data folders under it, the local server, a test key. */
export function terminalEnv(home: string, serverUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    TERM: 'tmux-256color',
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: serverUrl,
    VIBE_MODEL: 'test-model',
    ...extra,
  };
}

/** The status line: the last non-empty row of the screen. */
export function statusLine(screen: string): string {
  return screen.trimEnd().split('\n').at(-1) ?? '';
}

/**
 * The prompt and its status line are drawn: the last row is the status line (it always names the
 * turn count). Lines committed to the scrollback can reach the screen a frame before the prompt
 * does, so a test that reads the status line waits for this, not for text above it.
 */
export function promptShown(screen: string): boolean {
  return /\bturn \d+\/\d+/.test(statusLine(screen));
}
