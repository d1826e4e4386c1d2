/**
 * Issue 26 point 8, end to end: a one-shot run at a terminal (tmux) takes the TUI's single keys at
 * an approval question, in raw mode — no Enter — and puts the terminal back however it ends.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startChatServer, type ServerStep } from './support/chat-server.js';
import { CLI } from './support/cli-process.js';
import { cleanupAfterEach, requireTmux, startInTmux } from './support/tmux.js';
import { terminalEnv } from './support/tui-session.js';

const cleanups = cleanupAfterEach();
requireTmux();

const KEYS = '(Esc or Ctrl-C = no and stop the run)';
/** A yes/no question (trust) keeps Esc as a plain no. */
const YES_NO_KEYS = '(Esc = no, Ctrl-C stops the run)';
const DENIED = 'Denied: the user declined this call.';
const write = (path: string, content: string): ServerStep => ({ toolCalls: [{ name: 'write_file', arguments: { path, content } }] });

/** `vibe-agent "write notes"` in a tmux pane; after it, the shell prints the terminal's modes (`stty -a`). */
async function oneShot(script: ServerStep[], projectConfig?: object) {
  const server = await startChatServer(script);
  cleanups.push(() => server.close());
  const home = mkdtempSync(join(tmpdir(), 'vibe-oneshot-keys-'));
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  const workspace = join(home, 'project');
  mkdirSync(workspace);
  if (projectConfig) {
    mkdirSync(join(workspace, '.vibe-agent'));
    writeFileSync(join(workspace, '.vibe-agent', 'config.json'), JSON.stringify(projectConfig));
  }
  const run = `"$0" "$1" 'write notes' --tools write_file --no-session; status=$?; echo '--- stty'; stty -a; exit $status`;
  const pane = await startInTmux(['sh', '-c', run, process.execPath, CLI], { cwd: workspace, width: 160, height: 50, env: terminalEnv(home, server.url) });
  cleanups.push(() => pane.kill());
  /** The terminal's modes once the run has ended, as `stty -a` printed them. */
  const modes = async () => (await pane.screen()).split('--- stty')[1] ?? '';
  return { server, pane, workspace, modes };
}

const hasFlag = (modes: string, flag: string) => new RegExp(`(^|\\s)${flag}(\\s|$)`, 'm').test(modes);

describe('one-shot approvals take a single key', () => {
  it('y alone (no Enter) approves: the file is written, and the terminal is back in line mode', async () => {
    const { server, pane, workspace, modes } = await oneShot([write('notes.txt', 'hello\n'), { text: 'Wrote the notes.' }]);
    const question = await pane.waitFor(KEYS);
    expect(question).toContain('? write_file');
    expect(question).toContain('+hello');
    expect(question).toContain('a always allow');
    await pane.send(['y']);
    expect(await pane.waitForExit()).toBe(0);
    expect(readFileSync(join(workspace, 'notes.txt'), 'utf8')).toBe('hello\n');
    expect(await pane.screen()).toMatch(/no and stop the run\) *\n {2}allowed\n/);
    expect(server.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool' });
    expect(server.requests[1]!.messages.at(-1)!.content).not.toBe(DENIED);
    const after = await modes();
    expect(hasFlag(after, 'icanon') && hasFlag(after, 'echo')).toBe(true);
  });

  it('n denies: nothing is written and the model is told', async () => {
    const { server, pane, workspace } = await oneShot([write('notes.txt', 'hello\n'), { text: 'Left it alone.' }]);
    await pane.waitFor(KEYS);
    await pane.send(['n']);
    await pane.waitFor('Left it alone.');
    await pane.waitForExit();
    expect(existsSync(join(workspace, 'notes.txt'))).toBe(false);
    expect(await pane.screen()).toMatch(/ {2}denied\n/);
    expect(server.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', content: DENIED });
  });

  it('a burst (yy pasted in one go) answers only the question shown; the next one still waits for its own key', async () => {
    const { server, pane, workspace } = await oneShot([
      { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'first\n' } }, { name: 'write_file', arguments: { path: 'b.txt', content: 'second\n' } }] },
      { text: 'Done with both.' },
    ]);
    await pane.waitFor(KEYS);
    await pane.paste('yy');
    const second = await pane.waitFor((screen) => screen.includes('b.txt') && screen.trimEnd().endsWith(KEYS));
    expect(second.match(/ {2}allowed\n/g)).toHaveLength(1);
    await pane.send(['n']);
    await pane.waitFor('Done with both.');
    await pane.waitForExit();
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('first\n');
    expect(existsSync(join(workspace, 'b.txt'))).toBe(false);
    const results = server.requests[1]!.messages.filter((message) => message.role === 'tool').map((message) => message.content);
    expect(results).toHaveLength(2);
    expect(results[1]).toBe(DENIED);
    expect(results[0]).not.toBe(DENIED);
  });

  it.each([
    ['Ctrl-C', 'C-c'],
    ['Esc', 'Escape'],
  ])('%s at the question denies, stops the run with exit 130 and leaves the terminal sane (echo, icanon)', async (name, key) => {
    const { server, pane, workspace, modes } = await oneShot([write('notes.txt', 'hello\n'), { text: 'never asked for' }]);
    await pane.waitFor(KEYS);
    await pane.send([key]);
    expect(await pane.waitFor(`denied (${name}: the run stops)`)).toMatch(/no and stop the run\) *\n {2}denied \((Esc|Ctrl-C): the run stops\)\n/);
    expect(await pane.waitForExit()).toBe(130);
    expect(existsSync(join(workspace, 'notes.txt'))).toBe(false);
    expect(server.requests).toHaveLength(1);
    const after = await modes();
    expect(after).toContain('isig');
    expect(hasFlag(after, 'icanon') && hasFlag(after, 'echo') && hasFlag(after, 'isig')).toBe(true);
  });

  it('a trust question takes the same keys: Ctrl-C there stops the run (130) before the model is asked, the terminal sane', async () => {
    const hooks = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'touch hook-ran' }] }] } };
    const { server, pane, workspace, modes } = await oneShot([{ text: 'never asked for' }], hooks);
    await pane.waitFor(`Approve?  y yes   n no   ${YES_NO_KEYS}`);
    await pane.send(['C-c']);
    expect(await pane.waitForExit()).toBe(130);
    expect(server.requests).toHaveLength(0);
    expect(existsSync(join(workspace, 'hook-ran'))).toBe(false);
    const after = await modes();
    expect(hasFlag(after, 'icanon') && hasFlag(after, 'echo') && hasFlag(after, 'isig')).toBe(true);
  });
});
