import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { appendFileSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { readSessionFile } from '../src/session/read-session.js';
import { startChatServer, type ChatServer, type ServerStep } from './support/chat-server.js';
import { CLI_SESSION_TIMEOUT_MS, cliHome, waitFor, type CliHome } from './support/cli-process.js';

const servers: ChatServer[] = [];
const homes: CliHome[] = [];
const hanging: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const server of hanging.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
  for (const home of homes.splice(0)) home.cleanup();
});

async function setup(script: ServerStep[]) {
  const server = await startChatServer(script);
  servers.push(server);
  const home = cliHome();
  homes.push(home);
  const env = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model' };
  return { server, home, run: (args: string[], onSpawn?: Parameters<CliHome['run']>[2]) => home.run([...args, '--tools', 'course', '--yes', '--fetch-private', '127.0.0.1'], env, onSpawn) };
}

/** An HTTP server that accepts a request and never answers: a tool call stuck in flight. */
async function hangingServer(): Promise<{ url: string; hit: Promise<void> }> {
  let signal!: () => void;
  const hit = new Promise<void>((resolve) => (signal = resolve));
  const server = createServer(() => signal());
  hanging.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`, hit };
}

const user = (content: string) => ({ role: 'user', content });
const calc = (expression: string) => ({ toolCalls: [{ name: 'calculator', arguments: { expression } }] });

describe('sessions survive kill -9', { timeout: CLI_SESSION_TIMEOUT_MS }, () => {
  it('killed mid-stream: --continue sends exactly what was sent before plus the new input', async () => {
    // The reply stops after its first words and never ends: the kill lands with it half received, however slow the machine.
    const { server, home, run } = await setup([{ kind: 'stall', reply: { text: 'a long answer that never finishes' }, afterChunks: 2 }, { text: 'resumed' }]);
    // --json shows the first text delta on stdout.
    const killed = await run(['first task', '--json'], (child) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('"text_delta"')) child.kill('SIGKILL');
      });
    });
    expect(killed.signal).toBe('SIGKILL');
    expect(killed.stdout).toContain('"text_delta"');
    expect(home.sessionFiles()).toHaveLength(1);

    const resumed = await run(['--continue', 'second task']);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout.trim()).toBe('resumed');
    expect(server.requests[1]!.messages).toEqual([...server.requests[0]!.messages, user('second task')]);
    expect(server.violations).toEqual([]);
    expect(home.sessionFiles()).toHaveLength(1);
  });

  it('killed mid-tool: the completed turn is kept, the unfinished one is dropped whole', async () => {
    const slow = await hangingServer();
    const { server, home, run } = await setup([calc('2 + 2'), { toolCalls: [{ name: 'fetch_url', arguments: { url: slow.url } }] }, { text: 'resumed' }]);
    const killed = await run(['first task'], (child) => void slow.hit.then(() => child.kill('SIGKILL')));
    expect(killed.signal).toBe('SIGKILL');
    const beforeKill = server.requests[1]!.messages;
    expect(beforeKill.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('4') });
    server.forgetCallsInFlight();

    const resumed = await run(['--continue', 'second task']);
    expect(resumed.code).toBe(0);
    expect(server.requests[2]!.messages).toEqual([...beforeKill, user('second task')]);
    expect(server.violations).toEqual([]);
    expect(readSessionFile(home.sessionPath(home.sessionFiles()[0]!)).warnings).toEqual([]);
  });

  it('killed between turns (right after a turn end reached the file): that turn is kept', async () => {
    // The first run's next request (if it goes out before the kill) is never answered; the resumed run's is.
    const answerOnlyTheResumedRun: ServerStep = (body) => (body.messages.at(-1)?.content === 'second task' ? { text: 'resumed' } : { kind: 'silent' });
    const { server, home, run } = await setup([calc('6 * 7'), answerOnlyTheResumedRun, answerOnlyTheResumedRun]);
    const turnEnded = () => {
      const [file] = home.sessionFiles();
      return file !== undefined && readFileSync(home.sessionPath(file), 'utf8').includes('"type":"turn_end"');
    };
    const killed = await run(['first task'], (child) => void waitFor(turnEnded, 'a turn_end record').then(() => child.kill('SIGKILL')));
    expect(killed.signal).toBe('SIGKILL');

    const resumed = await run(['--continue', 'second task']);
    expect(resumed.code).toBe(0);
    const continued = server.requests.at(-1)!.messages;
    const [first] = server.requests;
    expect(continued.slice(0, first!.messages.length)).toEqual(first!.messages);
    const [assistant, tool, next] = continued.slice(first!.messages.length);
    expect(assistant).toMatchObject({ role: 'assistant', tool_calls: [{ function: { name: 'calculator', arguments: '{"expression":"6 * 7"}' } }] });
    expect(tool).toMatchObject({ role: 'tool', tool_call_id: (assistant as { tool_calls: Array<{ id: string }> }).tool_calls[0]!.id, content: expect.stringContaining('42') });
    expect(next).toEqual(user('second task'));
    // When the second request had already gone out, it is exactly the resumed history.
    if (server.requests.length === 3) expect(continued).toEqual([...server.requests[1]!.messages, user('second task')]);
    expect(server.violations).toEqual([]);
  });

  it('a second run cannot continue a session while the first is still writing it (exit 2)', async () => {
    // The first run's request is never answered, so it holds the session until it is killed. (A reply
    // that merely streamed slowly let a first run finish before a slow second one started: CI flake.)
    const { server, home, run } = await setup([{ kind: 'silent' }]);
    let first!: ChildProcess;
    const firstRun = run(['first task'], (child) => (first = child));
    // The session (and its lock) is opened before the first request goes out.
    await server.waitForRequest(1);
    const second = await run(['--continue', 'me too']);
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(/is in use by another vibe-agent run \(pid \d+\)/);
    first.kill('SIGKILL');
    await firstRun;
    expect(home.sessionFiles()).toHaveLength(1);
  });

  it('a torn last line is ignored with a warning, cut on reopen, and the file stays readable', async () => {
    const { server, home, run } = await setup([{ text: 'one' }, { text: 'two' }, { text: 'three' }]);
    expect((await run(['first'])).code).toBe(0);
    const path = home.sessionPath(home.sessionFiles()[0]!);
    appendFileSync(path, '{"type":"turn_end","turn":2,"messages":[{"role":"assis');

    const resumed = await run(['--continue', 'second']);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain('ignored an unfinished last line');
    expect(server.requests[1]!.messages).toEqual([...server.requests[0]!.messages, { role: 'assistant', content: 'one' }, user('second')]);
    const after = readSessionFile(path);
    expect(after.warnings).toEqual([]);
    expect(after.records.filter((r) => r.type === 'recovered')).toHaveLength(1);

    expect((await run(['--continue', 'third'])).stderr).not.toContain('warning');
    expect(server.requests[2]!.messages.slice(-3)).toEqual([user('second'), { role: 'assistant', content: 'two' }, user('third')]);
  });
});
