/**
 * Checkpoints and background jobs in the interactive UI, in a real terminal (tmux): /undo and
 * /rewind (picked from a list) put files on disk and the conversation back; a file the user
 * changed is listed and asked about (y/N); /bashes lists a background job and kills it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupAfterEach, requireTmux, type TmuxPane } from './support/tmux.js';
import { statusLine, tuiSession } from './support/tui-session.js';

const cleanups = cleanupAfterEach();
requireTmux();

const ARGS = ['--permission-mode', 'yolo', '--sandbox', 'off', '--tools', 'coding'];
const bash = (command: string, extra: Record<string, unknown> = {}) => ({ toolCalls: [{ name: 'bash', arguments: { command, ...extra } }] });
const userTexts = (body: { messages: Array<{ role: string; content?: unknown }> }) => body.messages.filter((m) => m.role === 'user').map((m) => m.content);

/** The turn has ended (its checkpoint bookkeeping included): the status line no longer says working. */
async function idle(pane: TmuxPane): Promise<void> {
  await pane.waitFor((screen) => !statusLine(screen).includes('working'));
}

async function type(pane: TmuxPane, text: string): Promise<void> {
  await idle(pane);
  await pane.send([text], { literal: true });
  await pane.send(['Enter']);
}

describe('checkpoints in the terminal UI (tmux)', () => {
  it('/undo puts back the last prompt, /rewind goes back before a prompt picked from the list (keys sent in one burst), files and conversation', async () => {
    const { server, pane, workspace } = await tuiSession(cleanups, [bash('printf first > a.txt'), { text: 'one done' }, bash('printf second > a.txt'), { text: 'two done' }, { text: 'fresh start' }], { args: ARGS });
    const a = join(workspace, 'a.txt');
    writeFileSync(a, 'start');
    await pane.waitFor('/help for commands');
    await type(pane, 'first task');
    await pane.waitFor('one done');
    await type(pane, 'second task');
    await pane.waitFor('two done');
    await idle(pane);
    expect(readFileSync(a, 'utf8')).toBe('second');

    await type(pane, '/undo');
    const undone = await pane.waitFor('Undo this rewind with: /rewind');
    expect(undone).toMatch(/Rewound to point 2, before the prompt "second task"\.\nFiles: 1 restored, 0 removed: a\.txt\./);
    expect(readFileSync(a, 'utf8')).toBe('first');

    await type(pane, '/rewind');
    const list = await pane.waitFor('↑/↓ or its number choose');
    expect(list).toMatch(/1 .*"first task" · changed a\.txt/);
    expect(list).toMatch(/2 .*"second task" \(rewound\) · changed a\.txt/);
    expect(list).toMatch(/›\s*3 .*before a rewind/); // the latest is selected first
    // Arrows and Enter back to back, as fast typing sends them: none of them falls through to the prompt.
    await pane.send(['Up', 'Up', 'Enter']);
    await pane.waitFor('Rewound to point 1, before the prompt "first task".');
    expect(readFileSync(a, 'utf8')).toBe('start');

    // The conversation went back to before the first prompt too.
    await type(pane, 'and now?');
    await pane.waitFor('fresh start');
    expect(userTexts(server.requests.at(-1)!)).toEqual(['and now?']);
    expect(server.violations).toEqual([]);
  });

  it("lists the files the user changed since the agent's turn and asks before overwriting them (n keeps, y overwrites)", async () => {
    const { pane, workspace } = await tuiSession(cleanups, [bash('printf agent > a.txt; printf agent > b.txt'), { text: 'both edited' }], { args: ARGS });
    const file = (name: string) => join(workspace, name);
    writeFileSync(file('a.txt'), 'original a');
    writeFileSync(file('b.txt'), 'original b');
    await pane.waitFor('/help for commands');
    await type(pane, 'edit both');
    await pane.waitFor('both edited');
    await idle(pane); // what the agent left is recorded when the turn ends
    writeFileSync(file('b.txt'), 'the user changed this');

    await type(pane, '/undo');
    const asked = await pane.waitFor('Overwrite them?');
    expect(asked).toMatch(/changed after the agent left them[^\n]*\n\s+b\.txt\n/);
    expect(asked.slice(asked.indexOf('changed after the agent'))).not.toContain('a.txt');
    await pane.send(['n'], { literal: true });
    await pane.waitFor('Nothing was changed: the files you changed are kept.');
    expect([readFileSync(file('a.txt'), 'utf8'), readFileSync(file('b.txt'), 'utf8')]).toEqual(['agent', 'the user changed this']);

    await type(pane, '/undo');
    await pane.waitFor(/› \/undo[\s\S]*› \/undo[\s\S]*Overwrite them\?/);
    await pane.send(['y'], { literal: true });
    await pane.waitFor('Rewound to point 1, before the prompt "edit both".');
    expect([readFileSync(file('a.txt'), 'utf8'), readFileSync(file('b.txt'), 'utf8')]).toEqual(['original a', 'original b']);
  });
});

describe('background jobs in the terminal UI (tmux)', () => {
  it('/bashes lists a running job (and the status line counts it); /bashes kill ends its process', async () => {
    const { pane } = await tuiSession(cleanups, [bash('sleep 300', { run_in_background: true }), { text: 'server started' }], { args: ARGS });
    await pane.waitFor('/help for commands');
    await type(pane, 'start the server');
    await pane.waitFor((screen) => screen.includes('server started') && statusLine(screen).includes('1 bg'));

    await type(pane, '/bashes');
    const listed = await pane.waitFor(/(bg\d+)\s+running\s+pid (\d+)\s+sleep 300/);
    const [, id, pid] = /(bg\d+)\s+running\s+pid (\d+)/.exec(listed)!;
    expect(isAlive(Number(pid))).toBe(true);

    await type(pane, `/bashes kill ${id}`);
    await pane.waitFor(`Killed ${id} (pid ${pid}): sleep 300`);
    await pane.waitFor((screen) => !statusLine(screen).includes(' bg'));
    expect(isAlive(Number(pid))).toBe(false);
    await type(pane, '/bashes');
    await pane.waitFor(new RegExp(`${id}\\s+killed`));
    await type(pane, '/bashes kill nope');
    await pane.waitFor('No background job nope');
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
