import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createVibeClient } from '../src/client/index.js';
import { agentUntil, agents, backgroundHome, killServer, serverOf } from './support/background-cli.js';
import { startChatServer, type ChatRequestBody, type Fault } from './support/chat-server.js';
import type { ScriptedReply } from '../src/providers/scripted.js';
import { CLI, waitForAsync, within, type CliHome } from './support/cli-process.js';
import { EventWatch } from './support/event-watch.js';
import { startInTmux, type TmuxPane } from './support/tmux.js';

// /bg from the terminal UI, and an attached terminal's /detach, plan mode and Esc: the built CLI in
// tmux, a local model server, the session server the CLI starts. Every wait is for a screen or a state,
// and every one is bounded with the step it is in: a hang fails fast and says where.

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Message = ChatRequestBody['messages'][number];
const text = (message: Message | undefined) => (typeof message?.content === 'string' ? message.content : JSON.stringify(message?.content ?? ''));
const lastUser = (body: ChatRequestBody) => text([...body.messages].reverse().find((message) => message.role === 'user'));
const answeredTool = (body: ChatRequestBody) => body.messages.at(-1)?.role === 'tool';
/** The model answers by what it was last asked, so the order of sessions and turns does not matter. */
const byPrompt = (reply: (body: ChatRequestBody) => ScriptedReply | Fault) => Array.from({ length: 40 }, () => reply);

function terminal(home: CliHome, args: string[]): Promise<TmuxPane> {
  return within(startInTmux([process.execPath, CLI, ...args], { cwd: home.workspace, width: 120, height: 40, env: { ...home.env, TERM: 'tmux-256color' } }), `starting vibe-agent ${args.join(' ')} in tmux`, 60_000).then((pane) => {
    cleanups.push(() => pane.kill());
    return pane;
  });
}

async function typeLine(pane: TmuxPane, line: string): Promise<void> {
  await pane.send([line], { literal: true });
  await pane.send(['Enter']);
}

function watch(home: CliHome, id: string): EventWatch {
  const server = serverOf(home);
  const events = new EventWatch({ baseUrl: server.url, token: server.token, sessionId: id });
  cleanups.push(() => events.close());
  return events;
}

const MOVED = /Moved to the background: (\S+) \(session ([^)\s]+)\)/;

describe('/bg in the terminal UI (the built CLI in tmux)', () => {
  it('moves an idle session and a running one to the server, which goes on with their history; agents lists them, attach shows them', { timeout: 300_000 }, async () => {
    const model = await startChatServer(
      byPrompt((body) => {
        const asked = lastUser(body);
        if (asked.includes('moved to the background')) return { text: 'carried on in the background.' };
        if (asked === 'long task') return { kind: 'stall', reply: { text: 'streaming slowly' }, afterChunks: 5 };
        if (asked === 'queued note') return { text: 'noted after carrying on.' };
        if (asked === 'second task') return { text: body.messages.some((message) => text(message) === 'first task') ? 'second done, with the history.' : 'no history!' };
        return { text: 'first done.' };
      }),
    );
    const home = backgroundHome(model.url);
    cleanups.push(() => model.close(), () => home.cleanup());
    cleanups.push(() => killServer(home));

    // Idle: the session moves between turns; nothing runs there until a prompt comes.
    const idle = await terminal(home, []);
    await idle.waitFor('Shift+Tab cycles modes', 60_000);
    await typeLine(idle, 'first task');
    await idle.waitFor('first done.', 60_000);
    await typeLine(idle, '/bg');
    expect(await idle.waitForExit(60_000)).toBe(0);
    const idleScreen = await idle.screen();
    expect(idleScreen).toContain('it waits there for a prompt');
    // Nothing runs there until a prompt comes: no end to be told of.
    expect(idleScreen).not.toContain('When it ends');
    const [, idleName = '', idleId = ''] = MOVED.exec(idleScreen) ?? [];
    expect(idleName).not.toBe('');
    expect(idleScreen).toContain(`Attach: vibe-agent attach ${idleName}`);
    expect(await agentUntil(home, (row) => row.id === idleId, 'for the idle session')).toMatchObject({ name: idleName, state: 'done' });

    // Running: /bg stops the turn here and the server carries it on, from the same session file.
    const busy = await terminal(home, []);
    await busy.waitFor('Shift+Tab cycles modes', 60_000);
    await typeLine(busy, 'long task');
    await busy.waitFor('streaming slowly', 60_000);
    // A prompt typed during the turn is queued; /bg acts at once and takes it along.
    await typeLine(busy, 'queued note');
    await busy.waitFor('1 queued', 60_000);
    await typeLine(busy, '/bg');
    expect(await busy.waitForExit(60_000)).toBe(0);
    const busyScreen = await busy.screen();
    expect(busyScreen).toContain('its stopped turn carries on there');
    expect(busyScreen).toContain('1 prompt typed meanwhile went with it.');
    // As with --bg, the terminal is told when the run it carries on ends.
    expect(busyScreen).toContain('When it ends: a notification on this terminal, and its report in vibe-agent agents.');
    const [, busyName = '', busyId = ''] = MOVED.exec(busyScreen) ?? [];
    expect(busyId).not.toBe('');
    const moved = await agentUntil(home, (row) => row.id === busyId, 'for the moved session');
    expect(['working', 'done']).toContain(moved.state);
    await agentUntil(home, (row) => row.id === busyId && row.state === 'done', 'done carrying on');

    // One writer: the server holds the session file's lock, and its events are numbered in one order.
    const file = home.sessionFiles().find((name) => name.includes(busyId))!;
    expect(readFileSync(home.sessionPath(file).replace(/\.jsonl$/, '.lock'), 'utf8').trim()).toBe(String(serverOf(home).pid));
    const events = watch(home, busyId);
    await events.until((event) => event.type === 'stop' && events.events.filter((one) => one.type === 'stop').length === 3, 'the stop of the queued prompt');
    const seqs = events.events.map((event) => event.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(events.events.filter((event) => event.type === 'stop').map((event) => (event as { reason?: string }).reason)).toEqual(['aborted', 'answered', 'answered']);

    // attach shows its history: the prompt typed in the terminal, then what the server carried on.
    const attached = await terminal(home, ['attach', busyName]);
    await attached.waitFor((screen) => screen.includes('› long task') && screen.includes('carried on in the background.') && screen.includes('noted after carrying on.'), 60_000);
    await attached.send(['C-d']);
    expect(await attached.waitForExit(60_000)).toBe(0);

    // The idle one goes on with its history when prompted from an attached terminal.
    const other = await terminal(home, ['attach', idleName]);
    await other.waitFor((screen) => screen.includes('› first task') && screen.includes('first done.'), 60_000);
    await typeLine(other, 'second task');
    await other.waitFor('second done, with the history.', 60_000);
    await typeLine(other, '/detach');
    expect(await other.waitForExit(60_000)).toBe(0);
    expect(await other.screen()).toContain(`Detached from ${idleName}`);
    expect(model.violations).toEqual([]);
  });

  it('plan mode in an attached terminal reaches the session: read-only with the plan prompt, then the plan carried out in the mode chosen', { timeout: 300_000 }, async () => {
    const model = await startChatServer(
      byPrompt((body) => {
        const planning = text(body.messages[0]).includes('Plan mode: only read-only tools run');
        if (lastUser(body) === 'start') return { text: 'ready.' };
        if (planning && !answeredTool(body)) return { toolCalls: [{ id: 'p1', name: 'write_file', arguments: { path: 'early.txt', content: 'too soon\n' } }] };
        if (planning) return { text: 'The plan: write it.\n\nFiles:\n- planned.txt\n\nCommands:\n- none' };
        if (!answeredTool(body)) return { toolCalls: [{ id: 'e1', name: 'write_file', arguments: { path: 'planned.txt', content: 'as planned\n' } }] };
        return { text: 'carried out.' };
      }),
    );
    const home = backgroundHome(model.url);
    cleanups.push(() => model.close(), () => home.cleanup());
    const started = await home.runWithin(['--bg', '--permission-mode', 'ask', 'start'], 'starting the background session');
    expect(started.code, started.stderr).toBe(0);
    cleanups.push(() => killServer(home));
    const row = await agentUntil(home, (one) => one.state === 'done', 'done with its first prompt');
    const events = watch(home, row.id);

    const pane = await terminal(home, ['attach', row.name]);
    await pane.waitFor((screen) => screen.includes('ready.') && screen.includes('Ctrl-D or /detach detaches'), 60_000);
    // The session's mode is ask; Shift+Tab cycles auto-edit, auto, then plan, as in a local terminal,
    // and the session takes each at once (before any prompt carries it).
    const server = serverOf(home);
    const client = createVibeClient({ baseUrl: server.url, token: server.token, fetch: (request) => fetch(request, { signal: AbortSignal.timeout(30_000) }) });
    const sessionMode = async () => (await client.GET('/v1/sessions/{id}', { params: { path: { id: row.id } } })).data?.permissionMode;
    for (const [shown, mode] of [['auto-edit (⇧Tab)', 'auto-edit'], ['auto (⇧Tab)', 'auto'], ['plan mode', 'plan']] as const) {
      await pane.send(['BTab']);
      await pane.waitFor(shown, 60_000);
      await waitForAsync(async () => (await sessionMode()) === mode, `the session to take ${mode}`, 60_000);
    }
    await typeLine(pane, 'plan the file');
    await pane.waitFor('Execute this plan?', 60_000);
    // The terminal and this watch read the stream each on its own: the terminal may show the
    // question before the watch has the stop it follows.
    const planStop = await events.until((event) => event.type === 'stop' && (event as { reason?: string }).reason === 'plan', 'the stop of the planning run');
    // The server ran it read-only: the write was refused, with nobody asked.
    expect(existsSync(join(home.workspace, 'early.txt'))).toBe(false);
    expect(events.events.some((event) => event.type === 'question')).toBe(false);

    // e: auto-edit, bounded by the plan's files: the write in the plan runs without a question.
    await pane.send(['e']);
    await pane.waitFor('carried out.', 60_000);
    await events.until((event) => event.type === 'stop', 'the stop of the execution run', planStop.seq);
    expect(readFileSync(join(home.workspace, 'planned.txt'), 'utf8')).toBe('as planned\n');
    expect(events.events.some((event) => event.type === 'question')).toBe(false);
    const execution = model.requests.find((body) => body.messages.some((message) => message.role === 'user' && text(message).includes('The plan is approved')))!;
    expect(text(execution.messages[0])).not.toContain('Plan mode: only read-only tools run');
    await pane.send(['C-d']);
    expect(await pane.waitForExit(60_000)).toBe(0);
  });

  it('Esc stops a turn of the session the attached terminal did not start, Ctrl-C one it sent; the terminal stays attached', { timeout: 300_000 }, async () => {
    const model = await startChatServer(byPrompt(() => ({ kind: 'stall', reply: { text: 'streaming slowly' }, afterChunks: 5 })));
    const home = backgroundHome(model.url);
    cleanups.push(() => model.close(), () => home.cleanup());
    const started = await home.runWithin(['--bg', 'long one'], 'starting the background session');
    expect(started.code, started.stderr).toBe(0);
    cleanups.push(() => killServer(home));
    const [row] = await agents(home);
    const events = watch(home, row!.id);
    await within(model.waitForRequest(1), 'the model asked by the background session', 60_000);

    const pane = await terminal(home, ['attach', row!.name]);
    await pane.waitFor((screen) => screen.includes('› long one') && screen.includes('Esc or Ctrl-C stops its turn'), 60_000);
    await pane.send(['Escape']);
    await events.until((event) => event.type === 'stop', 'the stop Esc asked for');
    expect(events.events.find((event) => event.type === 'stop')).toMatchObject({ reason: 'aborted' });
    await pane.waitFor('Aborted', 60_000);
    expect(await pane.exitStatus()).toBeUndefined();

    await typeLine(pane, 'another one');
    await pane.waitFor('streaming slowly', 60_000);
    await pane.send(['C-c']);
    const stops = () => events.events.filter((event) => event.type === 'stop');
    await events.until((event) => event.type === 'stop' && stops().length === 2, 'the stop Ctrl-C asked for');
    expect(stops().map((event) => (event as { reason?: string }).reason)).toEqual(['aborted', 'aborted']);
    expect(await pane.exitStatus()).toBeUndefined();
    await pane.send(['C-d']);
    expect(await pane.waitForExit(60_000)).toBe(0);
    expect(await pane.screen()).toContain(`Detached from ${row!.name}`);
  });
});
