/**
 * Issue 41 point 8, through the built CLI: a one-shot run on a terminal (tmux) prints the answer as
 * rendered Markdown — a table drawn aligned to the terminal's width — and, while a tool runs, one
 * live line with the tool, its arguments and the time it has run, gone once it ends; piped, the
 * answer is the model's text byte for byte.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startChatServer, type ServerStep } from './support/chat-server.js';
import { CLI, spawnCli } from './support/cli-process.js';
import { cleanupAfterEach, requireTmux, startInTmux } from './support/tmux.js';
import { terminalEnv } from './support/tui-session.js';

const cleanups = cleanupAfterEach();
requireTmux();

const ANSWER = [
  'The **slowest** files:',
  '',
  '| File | Time | Note |',
  '|:--|--:|:--|',
  '| `src/a.ts` | 1.25 s | parses the whole tree on every call, which is what makes it the slowest one here |',
  '| b.ts | 0.5 s | fine |',
  '',
  'Done.',
].join('\n');

async function workspaceFor(script: ServerStep[]) {
  const server = await startChatServer(script);
  cleanups.push(() => server.close());
  const home = mkdtempSync(join(tmpdir(), 'vibe-md-'));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  const workspace = join(home, 'project');
  mkdirSync(workspace);
  return { server, home, workspace };
}

describe('one-shot output on a terminal', () => {
  it('shows a live line for the running tool, then the answer with its table drawn to the width', async () => {
    // The command runs until the test has read its line (a fixed sleep could end between two reads of the pane at load).
    const { server, home, workspace } = await workspaceFor([{ toolCalls: [{ name: 'bash', arguments: { command: 'sh wait-for-go.sh' } }] }, { text: ANSWER }]);
    writeFileSync(join(workspace, 'wait-for-go.sh'), 'until [ -e go ]; do sleep 0.1; done\n');
    const pane = await startInTmux([process.execPath, CLI, 'time the files', '--no-session', '--yes', '--sandbox', 'off'], { cwd: workspace, width: 70, height: 40, env: terminalEnv(home, server.url) });
    cleanups.push(() => pane.kill());
    const running = await pane.waitFor(/Running bash command="sh wait-for-go\.sh"… \d+\.\d s · Ctrl-C stops/);
    expect(running).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Running bash command="sh wait-for-go\.sh"… /m);
    writeFileSync(join(workspace, 'go'), '');
    expect(await pane.waitForExit()).toBe(0);
    const screen = await pane.screen();
    expect(screen).not.toContain('Running bash');
    const rows = screen.split('\n');
    const top = rows.findIndex((row) => row.startsWith('┌'));
    expect(top).toBeGreaterThan(0);
    const table = rows.slice(top, rows.findIndex((row) => row.startsWith('└')) + 1);
    expect(table[1]).toMatch(/^│ File +│ +Time │ Note +│$/);
    expect(table[3]).toMatch(/^│ src\/a\.ts │ 1\.25 s │ parses the whole tree/);
    // The long note wrapped inside its column: every row is within the 70 columns and as wide as the border.
    for (const row of table) expect([...row].length).toBe([...table[0]!].length);
    expect([...table[0]!].length).toBeLessThanOrEqual(70);
    expect(table.join(' ').replace(/[│ ]+/g, ' ')).toContain('which is what makes it the slowest one here');
    expect(screen).toContain('The slowest files:');
    expect(screen).not.toContain('|--');
    expect(screen).toMatch(/^Done\.$/m);
  });

  it('with NO_COLOR draws the table with plain pipes, still aligned', async () => {
    const { server, home, workspace } = await workspaceFor([{ text: ANSWER }]);
    const pane = await startInTmux([process.execPath, CLI, 'time the files', '--no-session'], { cwd: workspace, width: 200, height: 30, env: terminalEnv(home, server.url, { NO_COLOR: '1' }) });
    cleanups.push(() => pane.kill());
    expect(await pane.waitForExit()).toBe(0);
    const rows = (await pane.screen()).split('\n').filter((row) => row.startsWith('|'));
    expect(rows).toHaveLength(4);
    expect(rows[0]).toMatch(/^\| File +\| +Time \| Note +\|$/);
    expect(rows[1]).toMatch(/^\|:-+\|-+:\|:-+\|$/);
    expect(new Set(rows.map((row) => row.length)).size).toBe(1);
  });

  it('piped, the answer is the model text byte for byte: nothing drawn, nothing lost', async () => {
    const { server, home, workspace } = await workspaceFor([{ text: ANSWER }]);
    const ran = await spawnCli(['time the files', '--no-session'], { cwd: workspace, env: terminalEnv(home, server.url) });
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe(`${ANSWER}\n`);
  });
});
