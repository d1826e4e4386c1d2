import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createVibeClient } from '../src/client/index.js';
import { rememberTrust } from '../src/trust/decide-trust.js';
import { landChecksQuestion } from '../src/trust/land-checks-question.js';
import { TrustStore } from '../src/trust/trust-store.js';
import { agents, backgroundHome, gitIn, killServer, repository, serverOf } from './support/background-cli.js';
import { startChatServer, type ChatRequestBody } from './support/chat-server.js';
import { waitFor } from './support/cli-process.js';
import { EventWatch } from './support/event-watch.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const numbered = (changed: Record<number, string> = {}) => Array.from({ length: 9 }, (_, index) => `${changed[index + 1] ?? `line ${index + 1}`}\n`).join('');
const SESSION_WRITES = numbered({ 1: 'LINE 1 (the session)' });
const USER_EDIT = numbered({ 9: 'line 9 (the user, uncommitted)' });

function reply(body: ChatRequestBody) {
  const results = body.messages.filter((message) => message.role === 'tool').length;
  if (results === 0) return { toolCalls: [{ id: 'r1', name: 'read_file', arguments: { path: 'shared.txt' } }] };
  return results === 1 ? { toolCalls: [{ id: 'w1', name: 'write_file', arguments: { path: 'shared.txt', content: SESSION_WRITES } }] } : { text: 'edited shared.txt.' };
}

describe('POST /v1/sessions/{id}/land (the built CLI\'s server over real HTTP, a scripted model, real git)', () => {
  it('refuses a session that needs you, other origins and unapproved project checks, lands nothing when a check fails, then lands beside the user\'s edit', { timeout: 300_000 }, async () => {
    const model = await startChatServer([reply, reply, reply]);
    const home = backgroundHome(model.url);
    cleanups.push(() => model.close(), () => home.cleanup());
    const repo = repository(home, numbered());
    // Ask mode: the write waits for an answer, so the session is "needs you" until it gets one.
    const started = await home.run(['--bg', '-w', 'edit', 'edit shared.txt']);
    expect(started.code, started.stderr).toBe(0);
    cleanups.push(() => killServer(home));
    const [row] = await agents(home);
    const id = row!.id;
    const server = serverOf(home);
    const client = createVibeClient({ baseUrl: server.url, token: server.token });
    const watch = new EventWatch({ baseUrl: server.url, token: server.token, sessionId: id });
    cleanups.push(() => watch.close());
    const question = (await watch.until((event) => event.type === 'question', 'the write\'s question')) as unknown as { id: string };
    writeFileSync(join(repo, 'shared.txt'), USER_EDIT);
    const land = (body: { checks?: string[]; noCheck?: boolean; only?: string[] }) => client.POST('/v1/sessions/{id}/land', { params: { path: { id } }, body });

    const waiting = await land({ noCheck: true });
    expect(waiting.response.status).toBe(409);
    expect(waiting.error).toMatchObject({ outcome: 'refused', error: 'edit is needs you; land it once it is done (or stop it: vibe-agent stop edit)' });

    const answered = await client.POST('/v1/sessions/{id}/approvals/{requestId}', { params: { path: { id, requestId: question.id } }, body: { decision: 'allow' } });
    expect(answered.response.status).toBe(200);
    await watch.until((event) => event.type === 'stop', 'the stop');
    const info = await client.GET('/v1/sessions/{id}', { params: { path: { id } } });
    expect(info.data!.worktree).toEqual({ name: 'edit', branch: 'vibe/edit', path: row!.worktree });

    // Same access rules as every route: no token 401, another page's origin 403 even with the token.
    const path = `${server.url}/v1/sessions/${id}/land`;
    const post = (headers: Record<string, string>) => fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{"noCheck":true}' });
    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: `Bearer ${server.token}`, origin: 'http://evil.example' })).status).toBe(403);
    expect((await land({ only: ['nothing.txt'], noCheck: true })).error).toMatchObject({ outcome: 'refused', reason: expect.stringContaining('the session did not change nothing.txt (it changed shared.txt)') });
    expect(readFileSync(join(repo, 'shared.txt'), 'utf8')).toBe(USER_EDIT);

    // The checkout's own checks: over HTTP nobody can be asked, so unapproved they refuse the land…
    mkdirSync(join(repo, '.vibe-agent'));
    const projectConfig = join(repo, '.vibe-agent', 'config.json');
    const projectChecks = ['echo the project check ran; exit 7'];
    writeFileSync(projectConfig, JSON.stringify({ landChecks: projectChecks }));
    const untrusted = await land({});
    expect(untrusted.response.status).toBe(409);
    expect(untrusted.error).toMatchObject({ outcome: 'refused', reason: expect.stringContaining(`${projectConfig} names land checks (${projectChecks[0]}), and they run only once you approve them for this workspace`) });
    // …and once approved for this workspace (as a terminal's land would have remembered), they run: this one fails, so nothing lands.
    rememberTrust(new TrustStore(repo, home.env), { key: `land-checks:${projectConfig}`, config: projectChecks, question: landChecksQuestion(projectConfig, projectChecks) }, true);
    const failing = await land({});
    expect(failing.response.status).toBe(409);
    expect(failing.error).toMatchObject({ outcome: 'check_failed', check: projectChecks[0], exitCode: 7, signal: null, output: 'the project check ran\n', reason: `the check "${projectChecks[0]}" failed (exit 7). Nothing was applied.` });
    const given = await land({ checks: ['grep -q "LINE 1 (the session)" shared.txt', 'exit 3'] });
    expect(given.error).toMatchObject({ outcome: 'check_failed', check: 'exit 3', exitCode: 3 });
    expect(readFileSync(join(repo, 'shared.txt'), 'utf8')).toBe(USER_EDIT);
    expect(home.sessionFiles()).toEqual([]);

    // A land from another process (the CLI's) holds the worktree's land lock: while it runs the server refuses the
    // session's prompts and a land of its own. Its check holds until released, then fails: nothing applied.
    const cliStarted = join(home.root, 'cli-check-started');
    const cliRelease = join(home.root, 'cli-check-release');
    const cliLand = home.run(['land', 'edit', '--yes', '--check', `touch '${cliStarted}'; while [ ! -f '${cliRelease}' ]; do sleep 0.05; done; exit 5`]);
    await waitFor(() => existsSync(cliStarted), 'the CLI land\'s check to start', 120_000);
    const duringCli = await client.POST('/v1/sessions/{id}/prompts', { params: { path: { id } }, body: { text: 'write more', mode: 'queue' } });
    expect(duringCli.response.status).toBe(409);
    expect(duringCli.error).toEqual({ error: `session ${id} is being landed; send the prompt once the land has ended` });
    const second = await land({ noCheck: true });
    expect(second.response.status).toBe(409);
    expect(second.error).toMatchObject({ outcome: 'refused', reason: expect.stringMatching(/^another land of edit is under way \(process \d+\); land it once that one has ended\. Nothing was applied\.$/) });
    writeFileSync(cliRelease, '');
    const cliFailed = await cliLand;
    expect(cliFailed.code).not.toBe(0);
    expect(cliFailed.stderr).toContain('failed (exit 5). Nothing was applied.');
    expect(readFileSync(join(repo, 'shared.txt'), 'utf8')).toBe(USER_EDIT);

    // While the land runs (its second check holds until the test releases it), a prompt is refused: nothing may write in the worktree being landed.
    const checkStarted = join(home.root, 'check-started');
    const release = join(home.root, 'check-release');
    const landing = land({ checks: ['grep -q "LINE 1 (the session)" shared.txt', `touch '${checkStarted}'; while [ ! -f '${release}' ]; do sleep 0.05; done`] });
    await waitFor(() => existsSync(checkStarted), 'the land\'s check to start', 120_000);
    const prompted = await client.POST('/v1/sessions/{id}/prompts', { params: { path: { id } }, body: { text: 'write more', mode: 'queue' } });
    expect(prompted.response.status).toBe(409);
    expect(prompted.error).toEqual({ error: `session ${id} is being landed; send the prompt once the land has ended` });
    writeFileSync(release, '');
    const landed = await landing;
    expect(landed.response.status, JSON.stringify(landed.error)).toBe(200);
    const tip = gitIn(row!.worktree!, 'rev-parse', 'HEAD').trim();
    expect(landed.data).toMatchObject({ outcome: 'landed', files: [{ path: 'shared.txt', action: 'wrote', merged: true }], partial: false, branch: 'vibe/edit', tip });
    expect(readFileSync(join(repo, 'shared.txt'), 'utf8')).toBe(numbered({ 1: 'LINE 1 (the session)', 9: 'line 9 (the user, uncommitted)' }));
    expect(gitIn(repo, 'diff', '--cached', '--name-only')).toBe('');
    expect((await client.GET('/v1/sessions/{id}', { params: { path: { id } } })).data!.worktree!.landed).toBe(tip);
    expect((await agents(home))[0]!.landed).toBe(tip);

    // One rewind point: rewind in the checkout puts the user's edit back.
    const rewound = await home.run(['rewind']);
    expect(rewound.code, rewound.stderr).toBe(0);
    expect(readFileSync(join(repo, 'shared.txt'), 'utf8')).toBe(USER_EDIT);
    expect(existsSync(join(repo, '.vibe-agent', 'config.json'))).toBe(true);
  });
});
