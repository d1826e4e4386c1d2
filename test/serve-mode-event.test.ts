/**
 * The session's permission mode on the session server: `POST /v1/sessions/{id}/mode` (and a prompt
 * carrying a mode) changes the conversation core's mode, which records a numbered `mode_changed`
 * event: on the SSE stream, in the stored events, and in the session file, from which
 * `vibe-agent replay` runs each run in the mode it ran in. The built server, the typed client over
 * real HTTP, a scripted chat server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createVibeClient, readEventPage } from '../src/client/index.js';
import { startChatServer } from './support/chat-server.js';
import { cliHome } from './support/cli-process.js';
import { EventWatch } from './support/event-watch.js';
import { startServe } from './support/serve-process.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const PLAN_PROMPT = 'Plan mode: only read-only tools run';
const systemOf = (body: { messages: Array<{ role: string; content?: unknown }> }) => String(body.messages.find((message) => message.role === 'system')?.content ?? '');

describe('the permission mode on the session server', () => {
  it('the mode route and a prompt\'s mode are recorded as mode_changed, streamed and stored; a repeated mode records nothing; replay runs each run in its recorded mode', { timeout: 300_000 }, async () => {
    const agent = await startChatServer([{ text: 'Plan: write a.txt.\n\nFiles:\n- a.txt\n\nCommands:\n- none' }, { text: 'Back in ask mode.' }]);
    const home = cliHome();
    cleanups.push(() => agent.close(), () => home.cleanup());
    const env = { ...home.env, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: agent.url, VIBE_MODEL: 'test-model' };
    const server = await startServe(['--sandbox', 'off'], { cwd: home.workspace, env });
    cleanups.push(() => server.kill());
    const token = server.printedToken!;
    const client = createVibeClient({ baseUrl: server.url, token });
    const created = await client.POST('/v1/sessions', { body: { workspace: home.workspace } });
    expect(created.data).toMatchObject({ permissionMode: 'ask' });
    const id = created.data!.id;
    const watch = new EventWatch({ baseUrl: server.url, token, sessionId: id });
    cleanups.push(() => watch.close());
    const mode = (permissionMode: 'ask' | 'plan') => client.POST('/v1/sessions/{id}/mode', { params: { path: { id } }, body: { permissionMode } });

    expect((await mode('plan')).data).toEqual({ permissionMode: 'plan' });
    const toPlan = await watch.until((event) => event.type === 'mode_changed', 'the change to plan mode');
    expect(toPlan).toMatchObject({ mode: 'plan', previous: 'ask', by: 'server' });
    expect((await mode('plan')).data).toEqual({ permissionMode: 'plan' });
    expect((await client.GET('/v1/sessions/{id}', { params: { path: { id } } })).data).toMatchObject({ permissionMode: 'plan' });

    // The core decides plan mode from its own mode: the run plans.
    await client.POST('/v1/sessions/{id}/prompts', { params: { path: { id } }, body: { text: 'plan the file', mode: 'queue' } });
    expect(await watch.until((event) => event.type === 'stop', 'the planning run\'s stop')).toMatchObject({ reason: 'plan' });
    expect(systemOf(agent.requests[0]!)).toContain(PLAN_PROMPT);

    // A prompt carries the mode its terminal shows: the change is recorded before its run.
    await client.POST('/v1/sessions/{id}/prompts', { params: { path: { id } }, body: { text: 'never mind', mode: 'queue', permissionMode: 'ask' } });
    const toAsk = await watch.until((event) => event.type === 'mode_changed' && event.mode === 'ask', 'the change back to ask');
    expect(toAsk).toMatchObject({ previous: 'plan', by: 'server' });
    const secondStop = await watch.until((event) => event.type === 'stop' && event.seq > toAsk.seq, 'the second run\'s stop');
    expect(secondStop).toMatchObject({ reason: 'answered' });
    expect(systemOf(agent.requests[1]!)).not.toContain(PLAN_PROMPT);

    // The repeated plan made no event; the stored events are the streamed ones.
    const changes = watch.events.filter((event) => event.type === 'mode_changed');
    expect(changes.map((event) => [event.mode, event.previous])).toEqual([
      ['plan', 'ask'],
      ['ask', 'plan'],
    ]);
    const stored = await readEventPage(client, id, 0);
    expect(stored.events.filter((event) => event.type === 'mode_changed')).toEqual(changes);
    const runStarts = stored.events.filter((event) => event.type === 'run_start').map((event) => event.seq);
    expect(toPlan.seq).toBeLessThan(runStarts[0]!);
    expect(toAsk.seq).toBeLessThan(runStarts[1]!);

    // Replayed offline in the settings' mode (ask): the first run still plans, as the file says it did.
    const replayed = await home.run(['replay', id]);
    expect(replayed.stdout, replayed.stderr).toContain('identical: the 2 requests of 2 turns in 2 runs');
    expect(replayed.code).toBe(0);
  });
});
