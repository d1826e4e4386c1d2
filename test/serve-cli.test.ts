import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createVibeClient, readEventPage, type ServerEvent } from '../src/client/index.js';
import { startChatServer, type ChatRequestBody, type ChatServer } from './support/chat-server.js';
import { cliHome, type CliHome } from './support/cli-process.js';
import { EventWatch } from './support/event-watch.js';
import { startServe, type ServeProcess } from './support/serve-process.js';

// The built server (npm run build), a scripted chat server for the model, and the typed client.
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const said = (body: ChatRequestBody | undefined, text: string) => JSON.stringify(body?.messages ?? []).includes(text);
const storedSeqs = (events: ServerEvent[]) => events.map((event) => event.seq);

async function setUp(script: Parameters<typeof startChatServer>[0]) {
  const model: ChatServer = await startChatServer(script);
  const home: CliHome = cliHome();
  cleanups.push(() => model.close(), () => home.cleanup());
  const env = { ...home.env, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: model.url, VIBE_MODEL: 'test-model' };
  const start = async () => {
    const server = await startServe([], { cwd: home.workspace, env });
    cleanups.push(() => server.kill());
    return server;
  };
  return { model, home, env, start };
}

describe('vibe-agent serve (the built server, the typed client and plain HTTP)', () => {
  it('runs a session end to end: numbered events, approvals from two clients, steering, interrupting, refusals, SIGKILL and resume', { timeout: 300_000 }, async () => {
    const { model, home, start } = await setUp([
      { toolCalls: [{ id: 'w1', name: 'write_file', arguments: { path: 'made.txt', content: 'approved\n' } }] },
      { text: 'Wrote made.txt.' },
      { kind: 'stall', reply: { text: 'thinking about the long task' }, afterChunks: 1 },
      (body) => ({ text: said(body, 'STEERED-TEXT') ? 'Steered.' : 'the steer did not arrive' }),
      { kind: 'stall', reply: { text: 'working' }, afterChunks: 1 },
      { kind: 'stall', reply: { text: 'half way' }, afterChunks: 1 },
      (body) => ({ text: said(body, 'Wrote made.txt.') ? 'Resumed with the history.' : 'the history is missing' }),
    ]);
    let server: ServeProcess = await start();
    const token = server.printedToken!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const tokenFile = join(home.env.XDG_DATA_HOME, 'vibe-agent', 'serve', 'token');
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(tokenFile, 'utf8').trim()).toBe(token);

    // Refused: no token, a wrong one (the same reply), any Origin header; health is open.
    const plain = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers });
    const noToken = await plain('/v1/sessions');
    const wrongToken = await plain('/v1/sessions', { authorization: 'Bearer not-the-token' });
    expect([noToken.status, wrongToken.status]).toEqual([401, 401]);
    expect(await noToken.text()).toBe(await wrongToken.text());
    const fromPage = await plain('/v1/sessions', { authorization: `Bearer ${token}`, origin: 'https://evil.example' });
    expect(fromPage.status).toBe(403);
    expect((await plain('/v1/health')).status).toBe(200);

    const first = createVibeClient({ baseUrl: server.url, token });
    const second = createVibeClient({ baseUrl: server.url, token });
    const nowhere = await first.POST('/v1/sessions', { body: { workspace: join(home.root, 'no-such-folder') } });
    expect([nowhere.response.status, nowhere.error?.error]).toEqual([400, expect.stringMatching(/is not a folder/)]);
    const created = await first.POST('/v1/sessions', { body: { workspace: home.workspace, permissionMode: 'ask' } });
    expect(created.response.status).toBe(201);
    const id = created.data!.id;
    let watch = new EventWatch({ baseUrl: server.url, token, sessionId: id });
    cleanups.push(() => watch.close());

    // An approval: it reaches the clients as an event, nothing runs before an answer, the first answer wins.
    await first.POST('/v1/sessions/{id}/prompts', { params: { path: { id } }, body: { text: 'make a file', mode: 'queue' } });
    const question = await watch.until((event) => event.type === 'question', 'approval question');
    expect(existsSync(join(home.workspace, 'made.txt'))).toBe(false);
    const pending = await second.GET('/v1/sessions/{id}', { params: { path: { id } } });
    expect(pending.data!.pendingApprovals.map((entry) => entry.requestId)).toEqual([question.id]);
    const path = { id, requestId: String(question.id) };
    const won = await second.POST('/v1/sessions/{id}/approvals/{requestId}', { params: { path }, body: { decision: 'allow' } });
    const late = await first.POST('/v1/sessions/{id}/approvals/{requestId}', { params: { path }, body: { decision: 'deny' } });
    expect([won.response.status, late.response.status]).toEqual([200, 409]);
    const answered = await watch.until((event) => event.type === 'stop', 'first stop');
    expect(answered).toMatchObject({ reason: 'answered', answer: 'Wrote made.txt.' });
    expect(readFileSync(join(home.workspace, 'made.txt'), 'utf8')).toBe('approved\n');

    // Steering a running turn: the text reaches the next request.
    await first.POST('/v1/sessions/{id}/prompts', { params: { path: { id } }, body: { text: 'a long task', mode: 'queue' } });
    await model.waitForRequest(3);
    await second.POST('/v1/sessions/{id}/prompts', { params: { path: { id } }, body: { text: 'STEERED-TEXT', mode: 'steer' } });
    const steered = await watch.until((event) => event.type === 'stop' && event.answer === 'Steered.', 'the steered answer', answered.seq);
    expect(said(model.requests[3], 'STEERED-TEXT')).toBe(true);

    // Interrupting one.
    await first.POST('/v1/sessions/{id}/prompts', { params: { path: { id } }, body: { text: 'another long one', mode: 'queue' } });
    await model.waitForRequest(5);
    const interrupted = await second.POST('/v1/sessions/{id}/interrupt', { params: { path: { id } } });
    expect(interrupted.data).toEqual({ interrupted: true });
    const aborted = await watch.until((event) => event.type === 'stop', 'the interrupted stop', steered.seq);
    expect(aborted.reason).toBe('aborted');

    // Numbered: the live stream counts up without a repeat, and the stored events are a subset of it.
    const live = storedSeqs(watch.events);
    expect(live).toEqual([...live].sort((a, b) => a - b));
    expect(new Set(live).size).toBe(live.length);
    const stored = await readEventPage(first, id, 0);
    expect(stored.events.every((event) => live.includes(event.seq))).toBe(true);

    // A crash mid-turn: SIGKILL while the model is streaming, restart, read the rest after N.
    await first.POST('/v1/sessions/{id}/prompts', { params: { path: { id } }, body: { text: 'one more long one', mode: 'queue' } });
    await model.waitForRequest(6);
    const beforeKill = await readEventPage(first, id, 0);
    const n = beforeKill.events.at(-3)!.seq;
    watch.close();
    await server.kill();
    server = await start();
    expect(server.printedToken).toBeUndefined();
    const again = createVibeClient({ baseUrl: server.url, token });
    const rest = await readEventPage(again, id, n);
    const whole = await readEventPage(again, id, 0);
    const restSeqs = storedSeqs(rest.events);
    expect(restSeqs).toEqual(storedSeqs(whole.events).filter((seq) => seq > n));
    expect(storedSeqs(whole.events).filter((seq) => seq <= n)).toEqual(storedSeqs(beforeKill.events).filter((seq) => seq <= n));
    expect(new Set(storedSeqs(whole.events)).size).toBe(whole.events.length);
    expect(rest.events.at(-1)).toMatchObject({ type: 'interrupted' });

    // The same session takes a prompt again, with its history.
    watch = new EventWatch({ baseUrl: server.url, token, sessionId: id, after: rest.next });
    await again.POST('/v1/sessions/{id}/prompts', { params: { path: { id } }, body: { text: 'and now?', mode: 'queue' } });
    const resumed = await watch.until((event) => event.type === 'stop', 'the stop after the restart');
    expect(resumed).toMatchObject({ reason: 'answered', answer: 'Resumed with the history.' });
    expect(resumed.seq).toBeGreaterThan(rest.next);
    expect(model.violations).toEqual([]);
  });

  it('changes a session\'s mode at once (POST …/mode): the running turn\'s next call is checked in the new mode', { timeout: 300_000 }, async () => {
    const { model, home, start } = await setUp([
      { toolCalls: [{ id: 'w1', name: 'write_file', arguments: { path: 'asked.txt', content: 'asked\n' } }] },
      { toolCalls: [{ id: 'w2', name: 'write_file', arguments: { path: 'unasked.txt', content: 'in auto-edit\n' } }] },
      { text: 'Wrote both.' },
    ]);
    const server = await start();
    const client = createVibeClient({ baseUrl: server.url, token: server.printedToken! });
    const created = await client.POST('/v1/sessions', { body: { workspace: home.workspace, permissionMode: 'ask' } });
    const id = created.data!.id;
    const watch = new EventWatch({ baseUrl: server.url, token: server.printedToken!, sessionId: id });
    cleanups.push(() => watch.close());
    await client.POST('/v1/sessions/{id}/prompts', { params: { path: { id } }, body: { text: 'write two files', mode: 'queue' } });
    const question = await watch.until((event) => event.type === 'question', 'the first write\'s question');

    // While the turn waits on that question, the mode changes: the turn's next write is not asked about.
    const changed = await client.POST('/v1/sessions/{id}/mode', { params: { path: { id } }, body: { permissionMode: 'auto-edit' } });
    expect([changed.response.status, changed.data]).toEqual([200, { permissionMode: 'auto-edit' }]);
    expect((await client.GET('/v1/sessions/{id}', { params: { path: { id } } })).data!.permissionMode).toBe('auto-edit');
    await client.POST('/v1/sessions/{id}/approvals/{requestId}', { params: { path: { id, requestId: String(question.id) } }, body: { decision: 'allow' } });
    expect(await watch.until((event) => event.type === 'stop', 'the stop')).toMatchObject({ reason: 'answered', answer: 'Wrote both.' });
    expect(watch.events.filter((event) => event.type === 'question')).toHaveLength(1);
    expect(readFileSync(join(home.workspace, 'unasked.txt'), 'utf8')).toBe('in auto-edit\n');

    // Refused: a mode that is none, an unknown session, no token.
    const post = (path: string, body: string, headers: Record<string, string> = { authorization: `Bearer ${server.printedToken!}` }) => fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    expect((await post(`/v1/sessions/${id}/mode`, '{"permissionMode":"anything"}')).status).toBe(400);
    expect((await post('/v1/sessions/no-such-session/mode', '{"permissionMode":"ask"}')).status).toBe(404);
    expect((await post(`/v1/sessions/${id}/mode`, '{"permissionMode":"ask"}', {})).status).toBe(401);
    expect((await client.GET('/v1/sessions/{id}', { params: { path: { id } } })).data!.permissionMode).toBe('auto-edit');
    expect(model.violations).toEqual([]);
  });
});
