import { afterEach, describe, expect, it } from 'vitest';
import { createVibeClient } from '../src/client/index.js';
import { startChatServer } from './support/chat-server.js';
import { cliHome } from './support/cli-process.js';
import { startServe } from './support/serve-process.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('vibe-agent serve: limits and bad requests (the built server)', () => {
  it('answers 503 with Retry-After past --max-sessions and --max-streams, 413 past the body limit, 400/404/415 with a reason, and keeps serving', { timeout: 120_000 }, async () => {
    const model = await startChatServer([]);
    const home = cliHome();
    cleanups.push(() => model.close(), () => home.cleanup());
    const env = { ...home.env, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: model.url, VIBE_MODEL: 'test-model' };
    const server = await startServe(['--max-sessions', '1', '--max-streams', '1', '--allow-origin', 'https://ide.example'], { cwd: home.workspace, env });
    cleanups.push(() => server.kill());
    const token = server.printedToken!;
    const client = createVibeClient({ baseUrl: server.url, token });
    const call = (path: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers } });

    const created = await client.POST('/v1/sessions', { body: { workspace: home.workspace } });
    expect(created.response.status).toBe(201);
    const id = created.data!.id;
    const full = await call('/v1/sessions', { method: 'POST', body: JSON.stringify({ workspace: home.workspace }) });
    expect(full.status).toBe(503);
    expect(full.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await full.json()) as { error: string }).error).toMatch(/--max-sessions/);

    const stream = await call(`/v1/sessions/${id}/events`);
    expect(stream.status).toBe(200);
    const second = await call(`/v1/sessions/${id}/events`);
    expect([second.status, second.headers.get('retry-after')]).toEqual([503, '5']);
    await stream.body!.cancel();

    const huge = await call(`/v1/sessions/${id}/prompts`, { method: 'POST', body: JSON.stringify({ text: 'x'.repeat(2 * 1024 * 1024) }) });
    expect(huge.status).toBe(413);
    const badMode = await call(`/v1/sessions/${id}/prompts`, { method: 'POST', body: JSON.stringify({ text: 'hi', mode: 'later' }) });
    expect(badMode.status).toBe(400);
    expect(((await badMode.json()) as { error: string }).error).toMatch(/^mode: /);
    const notJson = await call(`/v1/sessions/${id}/prompts`, { method: 'POST', body: 'text=hi', headers: { 'content-type': 'text/plain' } });
    expect(notJson.status).toBe(415);
    expect((await call('/v1/sessions/20260101-000000-beef')).status).toBe(404);
    const badAfter = await call(`/v1/sessions/${id}/events?after=-1`, { headers: { accept: 'application/json' } });
    expect(badAfter.status).toBe(400);

    // The named origin is let in (with CORS headers, its preflight answered); any other is not.
    const preflight = await fetch(`${server.url}/v1/sessions`, { method: 'OPTIONS', headers: { origin: 'https://ide.example', 'access-control-request-method': 'POST' } });
    expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([204, 'https://ide.example']);
    const allowed = await call('/v1/sessions', { headers: { origin: 'https://ide.example' } });
    expect(allowed.status).toBe(200);
    const other = await call('/v1/sessions', { headers: { origin: 'http://127.0.0.1:9' } });
    expect(other.status).toBe(403);

    // Nothing was lost: the session is still there and idle.
    const still = await client.GET('/v1/sessions/{id}', { params: { path: { id } } });
    expect(still.data).toMatchObject({ id, status: 'idle', queued: 0, pendingApprovals: [] });
    expect(model.requests).toEqual([]);
  });
});
