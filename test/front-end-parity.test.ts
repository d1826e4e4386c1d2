/**
 * One conversation, every front end: the same two prompts (a custom /command, then an @mention),
 * with a Stop hook that blocks the first stop once, driven through the one-shot CLI, the terminal
 * UI (in tmux), an editor over ACP (the ACP SDK's client) and the server (over HTTP), all built,
 * against one local Chat Completions server. Each must send the same request bodies, store the
 * same request records (what `replay` checks) and continue after the Stop hook the same way.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { client, ndJsonStream } from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { CLI, cliHome, type CliHome } from './support/cli-process.js';
import { startServe } from './support/serve-process.js';
import { requireTmux, startInTmux } from './support/tmux.js';
import { statusLine } from './support/tui-session.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const FIRST = '/greet Ada';
const SECOND = 'What do @notes.txt say?';
/** Each front end's three replies: the greeting, the answer after the Stop hook's block, the notes. */
const REPLIES = [{ text: 'Hello, Ada.' }, { text: 'Tests pass.' }, { text: 'The notes say 42.' }];

interface Run {
  /** The request bodies the wire server received. */
  bodies: unknown[];
  /** The session file's request records' digests, in order. */
  digests: string[];
  /** The Stop hook's continuations the session file recorded. */
  continued: string[];
  sessionId: string;
}

function setUp(server: ChatServer): { home: CliHome; env: Record<string, string>; bin: string } {
  const home = cliHome();
  cleanups.push(() => home.cleanup());
  mkdirSync(join(home.workspace, '.vibe-agent', 'commands'), { recursive: true });
  writeFileSync(join(home.workspace, '.vibe-agent', 'commands', 'greet.md'), '---\ndescription: greet someone\n---\nSay hello to $ARGUMENTS.\n');
  writeFileSync(join(home.workspace, 'notes.txt'), 'the answer is 42\n');
  const bin = join(home.root, 'bin');
  mkdirSync(bin);
  const hook = join(bin, 'not-done');
  // Blocks the first stop of each front end's run once (the test removes `once` between them).
  writeFileSync(hook, `#!/bin/sh\ncat > /dev/null\nif [ ! -f "${bin}/once" ]; then touch "${bin}/once"; echo "run the tests first" >&2; exit 2; fi\nexit 0\n`);
  chmodSync(hook, 0o755);
  mkdirSync(join(home.env.XDG_CONFIG_HOME, 'vibe-agent'), { recursive: true });
  writeFileSync(join(home.env.XDG_CONFIG_HOME, 'vibe-agent', 'config.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: hook }] }] } }));
  const env = { ...home.env, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model' };
  return { home, env, bin };
}

/** What one front end's run left: the bodies sent since `from`, and its session file's records. */
function collect(server: ChatServer, from: number, home: CliHome, sessionId: string): Run {
  const file = home.sessionFiles().find((name) => name === `${sessionId}.jsonl`);
  expect(file, `the session file of ${sessionId}`).toBeDefined();
  const records = readFileSync(home.sessionPath(file!), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; digest?: string; input?: string });
  return {
    bodies: server.requests.slice(from),
    digests: records.filter((record) => record.type === 'request').map((record) => record.digest!),
    continued: records.filter((record) => record.type === 'stop_hook_continue').map((record) => record.input!),
    sessionId,
  };
}

describe('every front end drives the same conversation', () => {
  it('one-shot, the terminal UI, ACP and the server send the same requests, record the same requests and follow the Stop hook alike', async () => {
    requireTmux();
    const server = await startChatServer([...REPLIES, ...REPLIES, ...REPLIES, ...REPLIES]);
    cleanups.push(() => server.close());
    const { home, env, bin } = setUp(server);
    const fresh = () => rmSync(join(bin, 'once'), { force: true });
    const runs: Record<string, Run> = {};
    const newSession = (before: string[]) => home.sessionFiles().find((name) => !before.includes(name))!;
    const idOf = (name: string) => name.replace(/\.jsonl$/, '');

    // One-shot: the command, then the mention in the same session (--continue).
    let before = home.sessionFiles();
    let from = server.requests.length;
    const first = await home.run([FIRST], env);
    expect(first.code, first.stderr).toBe(0);
    const second = await home.run(['--continue', SECOND], env);
    expect(second.code, second.stderr).toBe(0);
    runs.oneShot = collect(server, from, home, idOf(newSession(before)));

    // The terminal UI, in tmux.
    fresh();
    before = home.sessionFiles();
    from = server.requests.length;
    const pane = await startInTmux([process.execPath, CLI], { cwd: home.workspace, width: 110, height: 40, env: { ...env, TERM: 'tmux-256color' } });
    cleanups.push(() => pane.kill());
    const idle = (screen: string) => !/· working\b/.test(statusLine(screen));
    await pane.waitFor('/help for commands');
    await pane.send([FIRST], { literal: true });
    await pane.send(['Enter']);
    await pane.waitFor((screen) => screen.includes('Tests pass.') && idle(screen));
    await pane.send([SECOND], { literal: true });
    await pane.send(['Enter']);
    await pane.waitFor((screen) => screen.includes('The notes say 42.') && idle(screen));
    await pane.send(['C-d']);
    expect(await pane.waitForExit()).toBe(0);
    runs.tui = collect(server, from, home, idOf(newSession(before)));

    // An editor over ACP, through the ACP SDK's client.
    fresh();
    from = server.requests.length;
    const child = spawn(process.execPath, [CLI, 'acp'], { cwd: home.workspace, env, stdio: ['pipe', 'pipe', 'pipe'] });
    cleanups.push(() => void (child.exitCode === null && child.kill()));
    const connection = client({ name: 'parity-editor' }).connect(ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>));
    await connection.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: 'parity-editor', version: '1.0.0' } });
    const { sessionId } = await connection.agent.request('session/new', { cwd: home.workspace, mcpServers: [] });
    for (const text of [FIRST, SECOND]) expect((await connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] })).stopReason).toBe('end_turn');
    connection.close();
    child.stdin!.end();
    expect(await new Promise((resolve) => child.once('close', resolve))).toBe(0);
    runs.acp = collect(server, from, home, sessionId);

    // The server, over HTTP.
    fresh();
    from = server.requests.length;
    const serve = await startServe([], { cwd: home.workspace, env });
    cleanups.push(() => serve.kill());
    const token = serve.printedToken!;
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${serve.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
      expect(response.status, `${method} ${path}`).toBeLessThan(300);
      return (await response.json()) as Record<string, unknown>;
    };
    const { id } = (await call('POST', '/v1/sessions', { workspace: home.workspace })) as { id: string };
    for (const [text, requests] of [[FIRST, 2], [SECOND, 3]] as const) {
      await call('POST', `/v1/sessions/${id}/prompts`, { text, mode: 'queue' });
      // Waits for this prompt's requests, then for the session to be idle again.
      for (let info = await call('GET', `/v1/sessions/${id}`); server.requests.length - from < requests || info.status !== 'idle'; info = await call('GET', `/v1/sessions/${id}`)) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await serve.stop()).toBe(0);
    runs.server = collect(server, from, home, id);

    expect(server.violations).toEqual([]);
    const { oneShot } = runs;
    expect(oneShot!.bodies).toHaveLength(3);
    expect(JSON.stringify(oneShot!.bodies[0])).toContain('Say hello to Ada.');
    expect(JSON.stringify(oneShot!.bodies[2])).toContain('the answer is 42');
    expect(oneShot!.digests).toHaveLength(3);
    expect(oneShot!.continued).toEqual(['run the tests first']);
    for (const name of ['tui', 'acp', 'server']) {
      const run = runs[name]!;
      expect(run.bodies, `${name}: the request bodies`).toEqual(oneShot!.bodies);
      expect(run.digests, `${name}: the request records`).toEqual(oneShot!.digests);
      expect(run.continued, `${name}: the Stop hook's continuation`).toEqual(oneShot!.continued);
    }
    // Each session's records replay identically, offline.
    for (const run of Object.values(runs)) {
      const replayed = await home.run(['replay', run.sessionId], env);
      expect(replayed.code, replayed.stderr).toBe(0);
      expect(replayed.stdout).toContain('identical');
    }
  }, 240_000);
});
