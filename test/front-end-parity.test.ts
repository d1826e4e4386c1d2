/**
 * One conversation, every front end: the same two prompts (a custom /command, then an @mention),
 * with a Stop hook that blocks the first stop once, driven through the one-shot CLI, the terminal
 * UI (in tmux), an editor over ACP (the ACP SDK's client) and the server (over HTTP), all built,
 * against one local Chat Completions server. Each must send the same request bodies, store the
 * same request records (what `replay` checks), continue after the Stop hook the same way, fire the
 * same hooks in the same order and export the same OpenTelemetry spans (names, parents and
 * attributes, less ids and times).
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { client, ndJsonStream } from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { CLI, cliHome, type CliHome } from './support/cli-process.js';
import { startOtlpReceiver, type OtlpReceiver, type OtlpSpan } from './support/otlp-receiver.js';
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
  /** The hooks fired, in order: the event's name (and a SessionStart's source). */
  hooks: string[];
  /** The spans exported, as comparable lines (see `spanShape`). */
  spans: string[];
  sessionId: string;
}

/** Hook events a conversation without tool calls can fire; each is logged by name. */
const LOGGED = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SessionEnd'];

/** Attributes that name this run (ids) rather than describe it. */
const RUN_SPECIFIC = new Set(['gen_ai.conversation.id', 'gen_ai.tool.call.id']);

/** A span without its ids and times: its name, kind, status, parent's name and the other attributes, one line. */
function spanShape(span: OtlpSpan, byId: Map<string, OtlpSpan>): string {
  const attributes = Object.entries(span.attributes).filter(([key]) => !RUN_SPECIFIC.has(key)).sort(([a], [b]) => a.localeCompare(b));
  const parent = span.parentSpanId ? (byId.get(span.parentSpanId)?.name ?? 'missing parent') : null;
  return JSON.stringify({ name: span.name, kind: span.kind, status: span.status?.code ?? 0, parent, attributes });
}

function setUp(server: ChatServer, receiver: OtlpReceiver): { home: CliHome; env: Record<string, string>; bin: string } {
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
  // Appends the event it is given (and a SessionStart's source) to events.log, in the order hooks fire.
  const logger = join(bin, 'log-event');
  writeFileSync(logger, `#!/bin/sh\ninput=$(cat)\nsource=$(printf '%s' "$input" | sed -n 's/.*"source" *: *"\\([a-z]*\\)".*/\\1/p')\necho "$1\${source:+ $source}" >> "${bin}/events.log"\n`);
  chmodSync(logger, 0o755);
  const logged = Object.fromEntries(LOGGED.map((event) => [event, [{ hooks: [{ type: 'command', command: `${logger} ${event}` }] }]]));
  mkdirSync(join(home.env.XDG_CONFIG_HOME, 'vibe-agent'), { recursive: true });
  writeFileSync(join(home.env.XDG_CONFIG_HOME, 'vibe-agent', 'config.json'), JSON.stringify({ hooks: { ...logged, Stop: [{ hooks: [{ type: 'command', command: hook }] }, ...logged.Stop!] } }));
  const env = { ...home.env, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url };
  return { home, env, bin };
}

/** Where each front end's run begins: the requests, spans and hook lines before it. */
interface Mark {
  requests: number;
  spans: number;
}

/** What one front end's run left: the bodies sent and spans exported since `from`, the hooks it fired, and its session file's records. */
function collect(server: ChatServer, receiver: OtlpReceiver, from: Mark, home: CliHome, bin: string, sessionId: string): Run {
  const file = home.sessionFiles().find((name) => name === `${sessionId}.jsonl`);
  expect(file, `the session file of ${sessionId}`).toBeDefined();
  const records = readFileSync(home.sessionPath(file!), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; digest?: string; input?: string });
  return {
    bodies: server.requests.slice(from.requests),
    hooks: readFileSync(join(bin, 'events.log'), 'utf8').trim().split('\n'),
    spans: spansSince(receiver, from.spans),
    digests: records.filter((record) => record.type === 'request').map((record) => record.digest!),
    continued: records.filter((record) => record.type === 'stop_hook_continue').map((record) => record.input!),
    sessionId,
  };
}

/** The spans exported since the first `from`, as sorted shapes (batches may arrive in any order). */
function spansSince(receiver: OtlpReceiver, from: number): string[] {
  const spans = receiver.spans().slice(from);
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  return spans.map((span) => spanShape(span, byId)).sort();
}

describe('every front end drives the same conversation', () => {
  it('one-shot, the terminal UI, ACP and the server send the same requests, record the same requests and follow the Stop hook alike, fire the same hooks and export the same spans', async () => {
    requireTmux();
    const server = await startChatServer([...REPLIES, ...REPLIES, ...REPLIES, ...REPLIES]);
    cleanups.push(() => server.close());
    const receiver = await startOtlpReceiver();
    cleanups.push(() => receiver.close());
    const { home, env, bin } = setUp(server, receiver);
    const fresh = () => {
      rmSync(join(bin, 'once'), { force: true });
      rmSync(join(bin, 'events.log'), { force: true });
    };
    const mark = (): Mark => ({ requests: server.requests.length, spans: receiver.spans().length });
    const runs: Record<string, Run> = {};
    const newSession = (before: string[]) => home.sessionFiles().find((name) => !before.includes(name))!;
    const idOf = (name: string) => name.replace(/\.jsonl$/, '');

    // One-shot: the command, then the mention in the same session (--continue).
    let before = home.sessionFiles();
    let from = mark();
    const first = await home.run([FIRST], env);
    expect(first.code, first.stderr).toBe(0);
    const second = await home.run(['--continue', SECOND], env);
    expect(second.code, second.stderr).toBe(0);
    runs.oneShot = collect(server, receiver, from, home, bin, idOf(newSession(before)));

    // The terminal UI, in tmux.
    fresh();
    before = home.sessionFiles();
    from = mark();
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
    runs.tui = collect(server, receiver, from, home, bin, idOf(newSession(before)));

    // An editor over ACP, through the ACP SDK's client.
    fresh();
    from = mark();
    const child = spawn(process.execPath, [CLI, 'acp'], { cwd: home.workspace, env, stdio: ['pipe', 'pipe', 'pipe'] });
    cleanups.push(() => void (child.exitCode === null && child.kill()));
    const connection = client({ name: 'parity-editor' }).connect(ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>));
    await connection.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: 'parity-editor', version: '1.0.0' } });
    const { sessionId } = await connection.agent.request('session/new', { cwd: home.workspace, mcpServers: [] });
    for (const text of [FIRST, SECOND]) expect((await connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] })).stopReason).toBe('end_turn');
    connection.close();
    child.stdin!.end();
    expect(await new Promise((resolve) => child.once('close', resolve))).toBe(0);
    runs.acp = collect(server, receiver, from, home, bin, sessionId);

    // The server, over HTTP.
    fresh();
    from = mark();
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
      for (let info = await call('GET', `/v1/sessions/${id}`); server.requests.length - from.requests < requests || info.status !== 'idle'; info = await call('GET', `/v1/sessions/${id}`)) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await serve.stop()).toBe(0);
    runs.server = collect(server, receiver, from, home, bin, id);

    expect(server.violations).toEqual([]);
    const { oneShot } = runs;
    expect(oneShot!.bodies).toHaveLength(3);
    expect(JSON.stringify(oneShot!.bodies[0])).toContain('Say hello to Ada.');
    expect(JSON.stringify(oneShot!.bodies[2])).toContain('the answer is 42');
    expect(oneShot!.digests).toHaveLength(3);
    expect(oneShot!.continued).toEqual(['run the tests first']);
    // The @mention's read goes through the registry's hooks before the prompt's; the one-shot is two
    // processes, so its session ends after the first prompt and resumes (before the second prompt's
    // hooks, after its mention's read) where the others go on in one.
    expect(oneShot!.hooks).toEqual(['SessionStart startup', 'UserPromptSubmit', 'Stop', 'Stop', 'SessionEnd', 'PreToolUse', 'PostToolUse', 'SessionStart resume', 'UserPromptSubmit', 'Stop', 'SessionEnd']);
    const oneProcess = ['SessionStart startup', 'UserPromptSubmit', 'Stop', 'Stop', 'PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop', 'SessionEnd'];
    // Three runs (the greeting, its continuation, the notes), each one turn with one request.
    expect(oneShot!.spans.map((line) => (JSON.parse(line) as { name: string; parent: string | null }))).toEqual([
      ...Array(3).fill({ name: 'chat test-model', parent: 'turn 1' }),
      ...Array(3).fill({ name: 'invoke_agent vibe-agent', parent: null }),
      ...Array(3).fill({ name: 'turn 1', parent: 'invoke_agent vibe-agent' }),
    ].map((expected) => expect.objectContaining(expected)));
    for (const name of ['tui', 'acp', 'server']) {
      const run = runs[name]!;
      expect(run.bodies, `${name}: the request bodies`).toEqual(oneShot!.bodies);
      expect(run.digests, `${name}: the request records`).toEqual(oneShot!.digests);
      expect(run.continued, `${name}: the Stop hook's continuation`).toEqual(oneShot!.continued);
      expect(run.hooks, `${name}: the hooks fired`).toEqual(oneProcess);
      expect(run.spans, `${name}: the spans exported`).toEqual(oneShot!.spans);
    }
    // Each session's records replay identically, offline.
    for (const run of Object.values(runs)) {
      const replayed = await home.run(['replay', run.sessionId], env);
      expect(replayed.code, replayed.stderr).toBe(0);
      expect(replayed.stdout).toContain('identical');
    }
  }, 240_000);
});
