/**
 * The auto permission mode in a session of `vibe-agent serve`: the built server, the typed client
 * over real HTTP, two scripted chat servers (the agent's, and the reviewer's on the ollama preset).
 * A command the first tier leaves open goes to the reviewer exactly as in a terminal run, whether
 * the session was opened in auto mode or switched to it with `POST /v1/sessions/{id}/mode`; the
 * verdict is a numbered `permission_review` event on the stream and in the stored events.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createVibeClient, readEventPage } from '../src/client/index.js';
import { verdict } from './support/auto-mode-cli.js';
import { startChatServer } from './support/chat-server.js';
import { cliHome } from './support/cli-process.js';
import { EventWatch } from './support/event-watch.js';
import { startServe } from './support/serve-process.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const bash = (id: string, command: string) => ({ toolCalls: [{ id, name: 'bash', arguments: { command } }] });

describe('auto mode on the session server', () => {
  it('asks the reviewer about what the first tier leaves open, in a session opened in auto mode and in one switched to it; the verdict is a session event', { timeout: 300_000 }, async () => {
    const agent = await startChatServer([bash('b1', 'echo opened > opened.txt'), { text: 'Recorded.' }, bash('b2', 'echo switched > switched.txt'), { text: 'Recorded again.' }], { checkEcho: false });
    const reviewer = await startChatServer([verdict('allow', 'writing a file in the workspace is what the user asked'), verdict('allow')], { checkEcho: false });
    const home = cliHome();
    cleanups.push(() => agent.close(), () => reviewer.close(), () => home.cleanup());
    const env = { ...home.env, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: agent.url, VIBE_MODEL: 'agent-model', OLLAMA_BASE_URL: reviewer.url };
    const server = await startServe(['--reviewer', 'ollama/reviewer-model', '--sandbox', 'off'], { cwd: home.workspace, env });
    cleanups.push(() => server.kill());
    const token = server.printedToken!;
    const client = createVibeClient({ baseUrl: server.url, token });

    // A session opened in auto mode.
    const opened = await client.POST('/v1/sessions', { body: { workspace: home.workspace, permissionMode: 'auto' } });
    expect(opened.data).toMatchObject({ permissionMode: 'auto' });
    const first = opened.data!.id;
    const firstWatch = new EventWatch({ baseUrl: server.url, token, sessionId: first });
    cleanups.push(() => firstWatch.close());
    await client.POST('/v1/sessions/{id}/prompts', { params: { path: { id: first } }, body: { text: 'record that the session opened', mode: 'queue' } });
    const firstStop = await firstWatch.until((event) => event.type === 'stop', 'the first stop');
    expect(firstStop).toMatchObject({ reason: 'answered' });
    const firstReview = firstWatch.events.find((event) => event.type === 'permission_review');
    expect(firstReview).toMatchObject({ id: 'b1', name: 'bash', tier: 'reviewer', verdict: 'allow', reviewer: { provider: 'ollama', model: 'reviewer-model' } });
    expect(firstReview!.reason).toContain('writing a file in the workspace is what the user asked');
    expect(firstWatch.events.find((event) => event.type === 'tool_call_end' && event.id === 'b1')).toMatchObject({ status: 'ok' });
    expect(firstWatch.events.some((event) => event.type === 'question')).toBe(false);
    expect(readFileSync(join(home.workspace, 'opened.txt'), 'utf8')).toBe('opened\n');
    expect(reviewer.requests).toHaveLength(1);
    expect(JSON.stringify(reviewer.requests[0])).toContain('echo opened > opened.txt');
    // Stored as well as streamed: what a client reading after a reconnect sees.
    const stored = await readEventPage(client, first, 0);
    expect(stored.events.find((event) => event.type === 'permission_review')).toMatchObject({ id: 'b1', tier: 'reviewer', verdict: 'allow', seq: firstReview!.seq });

    // A session opened in ask mode and switched to auto, as a terminal's Shift+Tab does.
    const asking = await client.POST('/v1/sessions', { body: { workspace: home.workspace, permissionMode: 'ask' } });
    const second = asking.data!.id;
    const switched = await client.POST('/v1/sessions/{id}/mode', { params: { path: { id: second } }, body: { permissionMode: 'auto' } });
    expect(switched.data).toEqual({ permissionMode: 'auto' });
    const secondWatch = new EventWatch({ baseUrl: server.url, token, sessionId: second });
    cleanups.push(() => secondWatch.close());
    await client.POST('/v1/sessions/{id}/prompts', { params: { path: { id: second } }, body: { text: 'record that the mode switched', mode: 'queue' } });
    await secondWatch.until((event) => event.type === 'stop', 'the second stop');
    expect(secondWatch.events.find((event) => event.type === 'permission_review')).toMatchObject({ id: 'b2', tier: 'reviewer', verdict: 'allow' });
    expect(secondWatch.events.find((event) => event.type === 'tool_call_end' && event.id === 'b2')).toMatchObject({ status: 'ok' });
    expect(readFileSync(join(home.workspace, 'switched.txt'), 'utf8')).toBe('switched\n');
    expect(reviewer.requests).toHaveLength(2);
  });

  it('hands back to the clients after three refusals in a row: the call becomes a question, and the answer is the verdict of the person', { timeout: 300_000 }, async () => {
    const agent = await startChatServer([bash('c1', 'echo a > a.txt'), bash('c2', 'echo b > b.txt'), bash('c3', 'echo c > c.txt'), { text: 'Done.' }], { checkEcho: false });
    const reviewer = await startChatServer([verdict('deny'), verdict('deny'), verdict('deny')], { checkEcho: false });
    const home = cliHome();
    cleanups.push(() => agent.close(), () => reviewer.close(), () => home.cleanup());
    const env = { ...home.env, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: agent.url, VIBE_MODEL: 'agent-model', OLLAMA_BASE_URL: reviewer.url };
    // The mode from the run settings, as a config or flag sets it for every session.
    const server = await startServe(['--permission-mode', 'auto', '--reviewer', 'ollama/reviewer-model', '--sandbox', 'off'], { cwd: home.workspace, env });
    cleanups.push(() => server.kill());
    const token = server.printedToken!;
    const client = createVibeClient({ baseUrl: server.url, token });
    const created = await client.POST('/v1/sessions', { body: { workspace: home.workspace } });
    expect(created.data).toMatchObject({ permissionMode: 'auto' });
    const id = created.data!.id;
    const watch = new EventWatch({ baseUrl: server.url, token, sessionId: id });
    cleanups.push(() => watch.close());
    await client.POST('/v1/sessions/{id}/prompts', { params: { path: { id } }, body: { text: 'write three files', mode: 'queue' } });
    const question = await watch.until((event) => event.type === 'question', 'the hand-back question');
    expect(String((question.request as { summary: string }).summary)).toContain('auto mode: 3 refused in a row, 3 in all');
    expect(watch.events.filter((event) => event.type === 'permission_review').map((event) => [event.id, event.tier, event.verdict])).toEqual([
      ['c1', 'reviewer', 'deny'],
      ['c2', 'reviewer', 'deny'],
    ]);
    await client.POST('/v1/sessions/{id}/approvals/{requestId}', { params: { path: { id, requestId: String(question.id) } }, body: { decision: 'allow' } });
    await watch.until((event) => event.type === 'stop', 'the stop');
    expect(watch.events.find((event) => event.type === 'permission_review' && event.id === 'c3')).toMatchObject({ tier: 'person', verdict: 'allow', handedBack: true, refusals: { inARow: 3, total: 3 } });
    expect(readFileSync(join(home.workspace, 'c.txt'), 'utf8')).toBe('c\n');
    expect(existsSync(join(home.workspace, 'a.txt'))).toBe(false);
    expect(reviewer.requests).toHaveLength(3);
  });
});
