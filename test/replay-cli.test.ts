import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatRequestBody, type ChatServer, type ChatServerOptions, type ServerStep } from './support/chat-server.js';
import { CLI_SESSION_TIMEOUT_MS, cliHome, type CliHome } from './support/cli-process.js';
import { bigOutput } from './support/context-session.js';
import type { ScriptedReply } from '../src/providers/scripted.js';

const servers: ChatServer[] = [];
const homes: CliHome[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const home of homes.splice(0)) home.cleanup();
});

/** Three turns: two reads, then the answer. */
const THREE_TURNS: ServerStep[] = [
  { toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'notes.txt' } }] },
  { toolCalls: [{ id: 'c2', name: 'list_files', arguments: { path: '.' } }] },
  { text: 'The notes say hello.', usage: { inputTokens: 900, outputTokens: 12 } },
];

async function recordSession(script: ServerStep[] = THREE_TURNS, flags: string[] = [], exitCode = 0, serverOptions: ChatServerOptions = {}) {
  const server = await startChatServer(script, serverOptions);
  servers.push(server);
  const home = cliHome();
  homes.push(home);
  writeFileSync(join(home.workspace, 'notes.txt'), 'hello from the notes\n');
  writeFileSync(join(home.workspace, 'AGENTS.md'), 'Answer briefly.\n');
  for (let k = 1; k <= 8; k++) writeFileSync(join(home.workspace, `f${k}.txt`), Array.from({ length: 150 }, (_, i) => `line ${i} of file ${k}`).join('\n'));
  const env = { OPENAI_API_KEY: 'test-key-123456', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model' };
  const ran = await home.run(['what do the notes say?', ...flags], env);
  expect(ran.code, ran.stderr).toBe(exitCode);
  const [file] = home.sessionFiles();
  const id = file!.replace('.jsonl', '');
  // Offline: no provider configured at all for the replay.
  const replay = (args: string[], extra: Record<string, string> = {}) => home.run(['replay', ...args], extra);
  return { server, home, id, path: home.sessionPath(file!), env, replay };
}

describe('vibe-agent replay', { timeout: CLI_SESSION_TIMEOUT_MS * 2 }, () => {
  it('replays a recorded session offline and finds every request identical', async () => {
    const { id, path, replay, server } = await recordSession();
    const requests = readFileSync(path, 'utf8').split('\n').filter((line) => line.includes('"type":"request"'));
    expect(requests).toHaveLength(3);
    // The first request is whole, the next ones only add what changed.
    expect(JSON.parse(requests[1]!)).toMatchObject({ keep: server.requests[0]!.messages.length, append: [{ role: 'assistant' }, { role: 'tool', toolCallId: 'c1' }] });
    expect(JSON.parse(requests[1]!).tools).toBeUndefined();

    const byId = await replay([id.slice(0, 15)]);
    expect(byId.stderr).toBe('');
    expect(byId.stdout).toContain('identical: the 3 requests of 3 turns are byte for byte the recorded ones');
    expect(byId.code).toBe(0);
    const byPath = await replay([path]);
    expect(byPath.code).toBe(0);
  });

  it('reports a changed AGENTS.md at turn 1 as messages[0].content, with the text around the change', async () => {
    const { home, id, replay } = await recordSession();
    writeFileSync(join(home.workspace, 'AGENTS.md'), 'Answer at length.\n');
    const ran = await replay([id]);
    expect(ran.code).toBe(1);
    expect(ran.stdout).toContain('differs at turn 1, request 1 of 3: messages[0].content');
    expect(ran.stdout).toMatch(/recorded: ".*Answer briefly\./);
    expect(ran.stdout).toMatch(/now: {6}".*Answer at length\./);
  });

  it('reports a changed tool set as a difference in the tool schemas', async () => {
    const { id, replay } = await recordSession();
    const ran = await replay([id, '--tools', 'read_file,list_files']);
    expect(ran.code).toBe(1);
    expect(ran.stdout).toMatch(/differs at turn 1, request 1 of 3: tools\[\d+\]\.(name|description|parameters)/);
  });

  it('a continued session replays run by run, each from the history the file holds; --against refuses it; a missing session is a usage error', async () => {
    const { id, replay, home, env, server } = await recordSession([...THREE_TURNS, { toolCalls: [{ id: 'c9', name: 'read_file', arguments: { path: 'AGENTS.md' } }] }, { text: 'again' }]);
    expect(server.remaining).toBe(2);
    expect((await home.run(['--continue', 'once more'], env)).code).toBe(0);
    const twoRuns = await replay([id]);
    expect(twoRuns.stdout).toContain('identical: the 5 requests of 5 turns in 2 runs');
    expect(twoRuns.code).toBe(0);
    // The second run's requests start with today's system prompt, like a --continue today.
    writeFileSync(join(home.workspace, 'AGENTS.md'), 'Answer at length.\n');
    const changed = await replay([id]);
    expect(changed.stdout).toContain('differs in run 1 at turn 1, request 1 of 3: messages[0].content');
    const against = await replay([id, '--against'], env);
    expect(against.code).toBe(2);
    expect(against.stderr).toContain('holds 2 runs');
    const missing = await replay(['19990101']);
    expect(missing.code).toBe(2);
    expect((await home.run(['replay'])).code).toBe(2);
  });

  it('--against a live model reports the first turn whose calls differ from the recording', async () => {
    const recorded: ServerStep[] = [
      { toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'notes.txt' } }] },
      { toolCalls: [{ id: 'c2', name: 'list_files', arguments: { path: '.' } }] },
      { toolCalls: [{ id: 'c3', name: 'grep', arguments: { pattern: 'hello' } }] },
      { text: 'done' },
    ];
    const { id, replay } = await recordSession(recorded);
    // The live model: the same first two calls (arguments in another key order), then another call at turn 3.
    const live = await startChatServer([
      { toolCalls: [{ id: 'x1', name: 'read_file', arguments: '{ "path": "notes.txt" }' }] },
      { toolCalls: [{ id: 'x2', name: 'list_files', arguments: { path: '.' } }] },
      { toolCalls: [{ id: 'x3', name: 'read_file', arguments: { path: 'AGENTS.md' } }] },
    ]);
    servers.push(live);
    const ran = await replay([id, '--against'], { OPENAI_API_KEY: 'live-key-123456', OPENAI_BASE_URL: live.url, VIBE_MODEL: 'live-model' });
    expect(ran.stdout).toContain('diverges at turn 3');
    expect(ran.stdout).toContain('recorded: grep {"pattern":"hello"}');
    expect(ran.stdout).toContain('live:     read_file {"path":"AGENTS.md"}');
    expect(ran.code).toBe(1);
    // The live model got the recorded results of turns 1 and 2, under its own call ids.
    const third = live.requests[2]!.messages;
    expect(third.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, String(m.content)])).toEqual([
      ['x1', expect.stringContaining('hello from the notes')],
      ['x2', expect.stringContaining('notes.txt')],
    ]);
  });
});

describe('replay over the kinds of session the suite records', { timeout: CLI_SESSION_TIMEOUT_MS * 2 }, () => {
  it('a retried request, and a turn limit with its hand-off request: identical', async () => {
    const { id, path, replay } = await recordSession(
      [
        { kind: 'http_error', status: 500, body: { error: { message: 'try again' } }, headers: { 'retry-after-ms': '10' } },
        { toolCalls: [{ id: 'c1', name: 'read_file', arguments: { path: 'notes.txt' } }] },
        { toolCalls: [{ id: 'c2', name: 'list_files', arguments: { path: '.' } }] },
        { text: 'Read the notes; listing done; nothing else left.' },
      ],
      ['--max-turns', '2'],
      3,
    );
    const file = readFileSync(path, 'utf8');
    expect(file).toContain('"type":"retry"');
    expect(file).toContain('"type":"handoff"');
    const ran = await replay([id, '--max-turns', '2']);
    expect(ran.stdout).toContain('identical: the 3 requests of 2 turns');
    expect(ran.code).toBe(0);
    // Under another turn limit the hand-off request comes where turn 2's request was recorded.
    const shorter = await replay([id, '--max-turns', '1']);
    expect(shorter.code).toBe(1);
    expect(shorter.stdout).toContain('differs at turn 2, request 2 of 3');
  });

  it('a tool output capped by the context policy (--context-window) and read back with read_output: identical', async () => {
    const page = bigOutput(5, 18_000);
    const pages: Server = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(page));
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(pages.address() as AddressInfo).port}/page.txt`;
    try {
      const flags = ['--tools', 'fetch_url', '--context-window', '4096', '--yes', '--fetch-private', '127.0.0.1'];
      const { id, server, replay } = await recordSession(
        [
          { toolCalls: [{ id: 'f1', name: 'fetch_url', arguments: { url } }] },
          (body) => ({ toolCalls: [{ id: 'r1', name: 'read_output', arguments: { id: /output id (out_[0-9a-f]{12})/.exec(String(body.messages.at(-1)?.content))![1]!, offset: 5_000, limit: 3_000 } }] }),
          { text: 'Read it.' },
        ],
        flags,
      );
      // The output was capped in the request (so the replay has the policy's work to redo).
      expect(String(server.requests[1]!.messages.at(-1)?.content)).toContain('call read_output to see more');
      const ran = await replay([id, ...flags]);
      expect(ran.stdout).toContain('identical: the 3 requests of 3 turns');
      expect(ran.code).toBe(0);
      // Without the window the policy leaves the output whole: the second request differs in that tool message.
      const unbounded = await replay([id, '--tools', 'fetch_url', '--yes', '--fetch-private', '127.0.0.1']);
      expect(unbounded.code).toBe(1);
      expect(unbounded.stdout).toMatch(/differs at turn 2, request 2 of 3: messages\[3\]\.content/);
    } finally {
      await new Promise((resolve) => pages.close(resolve));
    }
  });

  it('compactions (summaries played back to the context policy): identical; another recorded summary shows at the first compaction turn', async () => {
    const reads = Array.from({ length: 8 }, (_, i) => ({ toolCalls: [{ id: `c${i + 1}`, name: 'read_file', arguments: { path: `f${i + 1}.txt` } }], usage: { inputTokens: 3300, outputTokens: 10 } }));
    const agentSteps: ScriptedReply[] = [...reads, { text: 'done', usage: { inputTokens: 3300, outputTokens: 5 } }];
    let next = 0;
    // A summary request has no tools and is a conversation of its own.
    const isSummary = (body: ChatRequestBody) => !body.tools?.length;
    const step = (body: ChatRequestBody) => (isSummary(body) ? { text: 'Summary: files were read.' } : agentSteps[next++]!);
    let summaries = 0;
    const flags = ['--tools', 'read_file,list_files', '--context-window', '4096'];
    const { id, path, replay } = await recordSession(Array.from({ length: 20 }, () => step), flags, 0, { conversationOf: (body) => (isSummary(body) ? `summary-${++summaries}` : 'agent') });
    const compactions = readFileSync(path, 'utf8').split('\n').filter((line) => line.includes('"type":"compaction"')).map((line) => JSON.parse(line) as { turn: number; summary: string });
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions[0]!.summary).toBe('Summary: files were read.');
    const ran = await replay([id, ...flags]);
    expect(ran.stdout).toContain('identical: the 9 requests of 9 turns');
    expect(ran.code).toBe(0);
    // The summaries are played back from the compaction records: another summary there shows in the request after it.
    const file = readFileSync(path, 'utf8');
    writeFileSync(path, file.split('\n').map((line) => (line.includes('"type":"compaction"') ? line.replace('Summary: files were read.', 'Summary: nothing happened.') : line)).join('\n'));
    const edited = await replay([id, ...flags]);
    expect(edited.code).toBe(1);
    expect(edited.stdout).toMatch(new RegExp(`differs at turn ${compactions[0]!.turn}, request ${compactions[0]!.turn} of 9: messages\\[\\d+\\]\\.content`));
    expect(edited.stdout).toContain('nothing happened');
  });
});
