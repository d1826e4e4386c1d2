/**
 * Goals through `vibe-agent serve`: the built server, the typed client over real HTTP, two scripted
 * chat servers (the agent's, and the judge's on the ollama preset). A goal is set on a session, its
 * state read (turns, cost, time, caps and what is left, the last verdict with its evidence) and
 * cleared; its goal_start / goal_verdict / goal_end events are numbered session events on the
 * stream; a restarted server does not continue an unfinished goal by itself.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createVibeClient, readEventPage } from '../src/client/index.js';
import { startChatServer } from './support/chat-server.js';
import { cliHome } from './support/cli-process.js';
import { EventWatch } from './support/event-watch.js';
import { askChecks, judged, writeGoalFixture } from './support/goal-cli.js';
import { startServe, type ServeProcess } from './support/serve-process.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const writeDone = (id: string) => ({ toolCalls: [{ id, name: 'write_file', arguments: { path: 'done.txt', content: 'done\n' } }] });
const passed = [{ check: 'npm test', exit_code: 0 }];

describe('goals on the session server', () => {
  it('sets, reads and clears a goal over HTTP; its verdicts and ends are numbered events on the stream; a restart does not continue it', { timeout: 300_000 }, async () => {
    const agent = await startChatServer([writeDone('w1'), { text: 'Wrote done.txt.' }, { text: 'I cannot make hello.txt here.' }, { text: 'Wrap-up: nothing was done.' }, writeDone('w2'), writeDone('w3')], { checkEcho: false });
    const judge = await startChatServer([askChecks('npm test'), judged('met', 'npm test passes', passed), judged('not_met', 'hello.txt does not exist')], { checkEcho: false });
    const home = cliHome();
    cleanups.push(() => agent.close(), () => judge.close(), () => home.cleanup());
    writeGoalFixture(home.workspace);
    const env = { ...home.env, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: agent.url, VIBE_MODEL: 'agent-model', OLLAMA_BASE_URL: judge.url };
    const start = async () => {
      const started = await startServe(['--goal-judge', 'ollama/judge-model', '--sandbox', 'off'], { cwd: home.workspace, env });
      cleanups.push(() => started.kill());
      return started;
    };
    let server: ServeProcess = await start();
    const token = server.printedToken!;
    const client = createVibeClient({ baseUrl: server.url, token });
    const created = await client.POST('/v1/sessions', { body: { workspace: home.workspace, permissionMode: 'ask' } });
    const id = created.data!.id;
    const path = { id };
    const watch = new EventWatch({ baseUrl: server.url, token, sessionId: id });
    cleanups.push(() => watch.close());

    // The same rules as every route: a token, no foreign origin; bad bodies refused; no goal yet.
    const plain = (headers: Record<string, string>) => fetch(`${server.url}/v1/sessions/${id}/goal`, { headers });
    expect((await plain({})).status).toBe(401);
    expect((await plain({ authorization: `Bearer ${token}`, origin: 'https://evil.example' })).status).toBe(403);
    expect((await client.GET('/v1/sessions/{id}/goal', { params: { path } })).response.status).toBe(404);
    const both = await client.POST('/v1/sessions/{id}/goal', { params: { path }, body: { condition: 'x', continue: true } });
    expect([both.response.status, both.error?.error]).toEqual([400, expect.stringMatching(/either a condition or continue/)]);
    expect((await client.POST('/v1/sessions/{id}/goal', { params: { path: { id: 'no-such-session' } }, body: { condition: 'x' } })).response.status).toBe(404);
    expect((await client.POST('/v1/sessions/{id}/goal', { params: { path }, body: { continue: true } })).response.status).toBe(409);

    // A goal that is met: the judge runs npm test and cites its exit code 0.
    const set = await client.POST('/v1/sessions/{id}/goal', { params: { path }, body: { condition: 'npm test passes', maxTurns: 5 } });
    expect(set.response.status).toBe(202);
    expect(set.data).toMatchObject({ condition: 'npm test passes', status: 'running', caps: { maxTurns: 5, maxCost: 5 }, spent: { turns: 0 }, left: { turns: 5 } });
    const question = await watch.until((event) => event.type === 'question', 'the approval question');
    expect((await client.POST('/v1/sessions/{id}/goal', { params: { path }, body: { condition: 'another' } })).response.status).toBe(409);
    expect((await client.GET('/v1/sessions/{id}/goal', { params: { path } })).data).toMatchObject({ status: 'running', spent: { turns: 0 } });
    await client.POST('/v1/sessions/{id}/approvals/{requestId}', { params: { path: { id, requestId: String(question.id) } }, body: { decision: 'allow' } });
    const met = await watch.until((event) => event.type === 'goal_end', 'the goal end');
    expect(met).toMatchObject({ outcome: 'met' });
    expect(readFileSync(join(home.workspace, 'done.txt'), 'utf8')).toBe('done\n');
    const state = (await client.GET('/v1/sessions/{id}/goal', { params: { path } })).data!;
    expect(state).toMatchObject({
      status: 'met',
      spent: { turns: 1 },
      left: { turns: 4 },
      lastVerdict: { status: 'met', accepted: true, evidence: passed, checks: [{ name: 'npm test', exit_code: 0 }] },
      end: { outcome: 'met', seq: met.seq },
    });
    expect(state.spent.tokens).toBeGreaterThan(0);
    expect(state.end!.report).toContain('Evidence: npm test exited 0');
    // The goal's events are numbered among the session's: start, the question, the verdict, the end.
    const goalSeqs = ['goal_start', 'question', 'goal_verdict', 'goal_end'].map((type) => watch.events.find((event) => event.type === type)!.seq);
    expect(goalSeqs).toEqual([...goalSeqs].sort((a, b) => a - b));
    expect(state.startSeq).toBe(goalSeqs[0]);
    expect(state.lastVerdict!.seq).toBe(goalSeqs[2]);
    const verdictEvent = watch.events.find((event) => event.type === 'goal_verdict')!;
    expect(verdictEvent).toMatchObject({ accepted: true, evidence: passed });

    // A goal that cannot be met stops at its turn cap after one wrap-up turn.
    await client.POST('/v1/sessions/{id}/goal', { params: { path }, body: { condition: 'hello.txt says hello', maxTurns: 1 } });
    const capped = await watch.until((event) => event.type === 'goal_end', 'the capped goal end', met.seq);
    expect(capped).toMatchObject({ outcome: 'cap' });
    expect((await client.GET('/v1/sessions/{id}/goal', { params: { path } })).data).toMatchObject({ condition: 'hello.txt says hello', status: 'cap', left: { turns: 0 }, lastVerdict: { accepted: false, reason: 'hello.txt does not exist' } });
    expect(agent.requests).toHaveLength(4);
    expect(JSON.stringify(agent.requests[3]!.messages)).toContain('Do not start new work');

    // Cleared while it waits for an approval: the turn stops and the goal ends as cleared.
    await client.POST('/v1/sessions/{id}/goal', { params: { path }, body: { condition: 'npm test passes again' } });
    await watch.until((event) => event.type === 'question', 'the second question', capped.seq);
    const cleared = await client.DELETE('/v1/sessions/{id}/goal', { params: { path } });
    expect(cleared.data).toMatchObject({ condition: 'npm test passes again', status: 'cleared', end: { outcome: 'cleared' } });
    await watch.until((event) => event.type === 'goal_end' && event.outcome === 'cleared', 'the cleared end', capped.seq);

    // A goal running when the server is killed is not continued by the restarted one: it is unfinished until asked.
    const third = await client.POST('/v1/sessions/{id}/goal', { params: { path }, body: { condition: 'npm test passes a third time' } });
    expect(third.response.status).toBe(202);
    const lastQuestion = await watch.until((event) => event.type === 'question' && event.seq > third.data!.startSeq!, 'the third question');
    const requestsBefore = agent.requests.length;
    watch.close();
    await server.kill();
    server = await start();
    const again = createVibeClient({ baseUrl: server.url, token });
    const unfinished = await again.GET('/v1/sessions/{id}/goal', { params: { path } });
    expect(unfinished.data).toMatchObject({ condition: 'npm test passes a third time', status: 'unfinished' });
    const stored = await readEventPage(again, id, lastQuestion.seq);
    expect(stored.events.map((event) => event.type)).toEqual(['interrupted']);
    expect(agent.requests).toHaveLength(requestsBefore);
    // Cleared without running: the end is recorded, so it is over.
    const over = await again.DELETE('/v1/sessions/{id}/goal', { params: { path } });
    expect(over.data).toMatchObject({ status: 'cleared' });
    const after = await readEventPage(again, id, lastQuestion.seq);
    expect(after.events.map((event) => event.type)).toEqual(['interrupted', 'goal_end']);
    expect((await again.POST('/v1/sessions/{id}/goal', { params: { path }, body: { continue: true } })).response.status).toBe(409);
    expect(judge.requests).toHaveLength(3);
  });
});
