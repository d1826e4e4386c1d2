import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import {
  client,
  ndJsonStream,
  type ClientCapabilities,
  type ContentBlock,
  type ClientConnection,
  type McpServer,
  type PermissionOptionKind,
  type RequestPermissionRequest,
  type SessionNotification,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer, type ServerStep } from './support/chat-server.js';
import { CLI, cliHome, type CliHome } from './support/cli-process.js';
import { writePng } from './support/image-fixtures.js';
import { cleanedAfterEach } from './support/editor-cleanup.js';

const { agents, servers, homes } = cleanedAfterEach<ChatServer>();

interface EditorOptions {
  capabilities?: ClientCapabilities;
  /** The answer to each permission question, by the kind of option to pick. */
  answer?: (request: RequestPermissionRequest) => PermissionOptionKind;
  /** Unsaved editor buffers, by absolute path (fs/read_text_file answers from them first). */
  buffers?: Map<string, string>;
  /** Start the agent with no provider key or endpoint in its environment. */
  noCredentials?: boolean;
  /** VIBE_MODEL for the agent (default test-model, which takes images). */
  model?: string;
}

/** A scripted editor: the SDK's client side, talking to the built `vibe-agent acp` over its stdio. */
function startEditor(home: CliHome, server: ChatServer, options: EditorOptions = {}) {
  const child = spawn(process.execPath, [CLI, 'acp'], {
    cwd: home.workspace,
    env: options.noCredentials ? home.env : { ...home.env, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.url, VIBE_MODEL: options.model ?? 'test-model', VIBE_MCP_WAIT: '60' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  agents.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const updates: SessionNotification[] = [];
  const questions: RequestPermissionRequest[] = [];
  const reads: string[] = [];
  const writes: Array<{ path: string; content: string }> = [];
  let wake: () => void = () => undefined;
  const app = client({ name: 'test-editor' })
    .onNotification('session/update', ({ params }) => {
      updates.push(params);
      wake();
    })
    .onRequest('session/request_permission', ({ params }) => {
      questions.push(params);
      const kind = options.answer?.(params) ?? 'reject_once';
      const option = params.options.find((o) => o.kind === kind);
      return { outcome: option ? { outcome: 'selected', optionId: option.optionId } : { outcome: 'cancelled' } };
    })
    .onRequest('fs/read_text_file', ({ params }) => {
      reads.push(params.path);
      return { content: options.buffers?.get(params.path) ?? readFileSync(params.path, 'utf8') };
    })
    .onRequest('fs/write_text_file', ({ params }) => {
      writes.push({ path: params.path, content: params.content });
      options.buffers?.set(params.path, params.content);
      return {};
    });
  const connection: ClientConnection = app.connect(ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>));
  const agent = connection.agent;
  return {
    agent,
    updates,
    questions,
    reads,
    writes,
    stderr: () => stderr,
    /** Resolves once an update matching `test` has arrived after the first `from` (waits on the notifications, never on time). */
    async waitForUpdate(from: number, test: (update: SessionUpdate) => boolean): Promise<SessionUpdate> {
      for (;;) {
        const found = updates.slice(from).find((n) => test(n.update));
        if (found) return found.update;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    initialize: () => agent.request('initialize', { protocolVersion: 1, clientCapabilities: options.capabilities ?? {}, clientInfo: { name: 'test-editor', version: '1.0.0' } }),
    newSession: async () => (await agent.request('session/new', { cwd: home.workspace, mcpServers: [] })).sessionId,
    prompt: (sessionId: string, text: string) => agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] }),
    /** Closes the connection and the agent's stdin, as an editor does when it is done with the agent. */
    close: () => {
      connection.close();
      child.stdin!.end();
    },
  };
}

async function setup(script: ServerStep[]) {
  const server = await startChatServer(script);
  servers.push(server);
  const home = cliHome();
  homes.push(home);
  return { server, home, file: (name: string) => join(home.workspace, name) };
}

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, arguments: args }] });
const ofKind = <K extends SessionUpdate['sessionUpdate']>(updates: SessionNotification[], kind: K) =>
  updates.map((n) => n.update).filter((u): u is Extract<SessionUpdate, { sessionUpdate: K }> => u.sessionUpdate === kind);
const toolMessages = (body: { messages: Array<{ role: string; content?: unknown }> }) => body.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));

describe('vibe-agent acp: an editor drives the agent over stdio', () => {
  it('initializes, runs a prompt with read and edit calls shown as tool calls, asks permission both ways, cancels, then a new process loads the session', async () => {
    const { server, home, file } = await setup([
      call('read_file', { path: 'greet.txt' }),
      call('edit_file', { path: 'greet.txt', old_string: 'hello', new_string: 'hello world' }),
      { text: 'Edited the greeting.', reasoning: 'The file says hello.' },
      call('bash', { command: 'rm -rf build' }),
      { text: 'I did not remove it.' },
      { kind: 'slow', reply: { text: 'one two three four five six seven eight nine ten eleven twelve' }, frameDelayMs: 1000 },
    ]);
    writeFileSync(file('greet.txt'), 'line one\nhello\n');
    const editor = startEditor(home, server, { answer: (q) => (q.toolCall.title?.startsWith('edit') ? 'allow_once' : 'reject_once') });

    const init = await editor.initialize();
    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities).toMatchObject({ loadSession: true, promptCapabilities: { image: true, embeddedContext: true } });
    expect(init.authMethods?.[0]?.description).toContain('OPENAI_API_KEY');
    expect(await editor.agent.request('authenticate', { methodId: init.authMethods![0]!.id })).toEqual({});

    const sessionId = await editor.newSession();
    const first = await editor.prompt(sessionId, 'fix the greeting');
    expect(first.stopReason).toBe('end_turn');

    const calls = ofKind(editor.updates, 'tool_call');
    const read = calls.find((c) => c.title === 'Read greet.txt')!;
    expect(read).toMatchObject({ kind: 'read', status: 'pending', locations: [{ path: file('greet.txt') }] });
    const edit = calls.find((c) => c.title === 'Edit greet.txt')!;
    expect(edit).toMatchObject({ kind: 'edit', locations: [{ path: file('greet.txt'), line: 2 }] });
    expect(edit.content).toEqual([{ type: 'diff', path: file('greet.txt'), oldText: 'line one\nhello\n', newText: 'line one\nhello world\n' }]);
    const ends = ofKind(editor.updates, 'tool_call_update');
    expect(ends.find((u) => u.toolCallId === read.toolCallId)).toMatchObject({ status: 'completed' });
    const editEnd = ends.find((u) => u.toolCallId === edit.toolCallId)!;
    expect(editEnd.status).toBe('completed');
    expect(editEnd.content?.[0]).toMatchObject({ type: 'diff' });
    expect(readFileSync(file('greet.txt'), 'utf8')).toBe('line one\nhello world\n');
    // Only the edit needed approval: the question names the call and offers once, always and reject.
    expect(editor.questions).toHaveLength(1);
    expect(editor.questions[0]!.toolCall.toolCallId).toBe(edit.toolCallId);
    expect(editor.questions[0]!.options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once']);
    expect(ofKind(editor.updates, 'agent_message_chunk').map((u) => (u.content.type === 'text' ? u.content.text : '')).join('')).toBe('Edited the greeting.');
    expect(ofKind(editor.updates, 'agent_thought_chunk').map((u) => (u.content.type === 'text' ? u.content.text : '')).join('')).toBe('The file says hello.');

    // The second question is answered reject: the model sees a denied result, and nothing ran.
    const second = await editor.prompt(sessionId, 'clean the build folder');
    expect(second.stopReason).toBe('end_turn');
    expect(editor.questions).toHaveLength(2);
    const bash = ofKind(editor.updates, 'tool_call').find((c) => c.title === 'Run `rm -rf build`')!;
    expect(bash.kind).toBe('execute');
    expect(ofKind(editor.updates, 'tool_call_update').find((u) => u.toolCallId === bash.toolCallId)).toMatchObject({ status: 'failed' });
    expect(toolMessages(server.requests[4]!).at(-1)).toBe('Denied: the user declined this call.');

    // A cancel mid-stream: the prompt answers cancelled and the model request is dropped.
    const before = editor.updates.length;
    const third = editor.prompt(sessionId, 'count slowly');
    await editor.waitForUpdate(before, (u) => u.sessionUpdate === 'agent_message_chunk');
    await editor.agent.notify('session/cancel', { sessionId });
    expect((await third).stopReason).toBe('cancelled');
    expect(await server.waitForHangUp()).toBe(6);
    editor.close();
    // The editor closing the agent's stdin ends it cleanly.
    expect(await new Promise((resolve) => agents[0]!.once('close', resolve))).toBe(0);
    expect(editor.stderr()).toBe('');

    // A new agent process (the editor restarted) loads the session: the history is replayed, then it continues.
    const next = await startChatServer([{ text: 'Still here.' }]);
    servers.push(next);
    const again = startEditor(home, next);
    await again.initialize();
    expect(await again.agent.request('session/load', { sessionId, cwd: home.workspace, mcpServers: [] })).toMatchObject({ modes: { currentModeId: 'ask' } });
    const replayed = again.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update);
    expect(ofKind(again.updates, 'user_message_chunk').map((u) => (u.content.type === 'text' ? u.content.text : ''))).toEqual(['fix the greeting', 'clean the build folder', 'count slowly']);
    expect(replayed.filter((u) => u.sessionUpdate === 'tool_call').map((u) => (u as { title: string }).title)).toEqual(['Read greet.txt', 'Edit greet.txt', 'Run `rm -rf build`']);
    expect(ofKind(again.updates, 'tool_call_update').map((u) => u.status)).toEqual(['completed', 'completed', 'failed']);
    const continued = await again.prompt(sessionId, 'are you there?');
    expect(continued.stopReason).toBe('end_turn');
    const users = next.requests[0]!.messages.filter((m) => m.role === 'user').map((m) => m.content);
    expect(users).toEqual(['fix the greeting', 'clean the build folder', 'count slowly', 'are you there?']);
    expect(server.violations).toEqual([]);
    expect(next.violations).toEqual([]);
    again.close();
  }, 120_000);

  it('reads and writes through the editor when it offers fs: read_file sees the unsaved buffer, write_file goes to writeTextFile', async () => {
    const { server, home, file } = await setup([
      call('read_file', { path: 'notes.md' }),
      call('write_file', { path: 'notes.md', content: 'rewritten by the agent\n' }),
      { text: 'Done.' },
    ]);
    writeFileSync(file('notes.md'), 'saved on disk\n');
    const buffers = new Map([[file('notes.md'), 'unsaved in the editor\n']]);
    const editor = startEditor(home, server, { capabilities: { fs: { readTextFile: true, writeTextFile: true } }, buffers, answer: () => 'allow_once' });
    await editor.initialize();
    const sessionId = await editor.newSession();
    expect((await editor.prompt(sessionId, 'rewrite the notes')).stopReason).toBe('end_turn');

    expect(toolMessages(server.requests[1]!)[0]).toContain('unsaved in the editor');
    expect(editor.reads).toContain(file('notes.md'));
    expect(editor.writes).toEqual([{ path: file('notes.md'), content: 'rewritten by the agent\n' }]);
    // The disk copy is the editor's to save: the agent wrote only through it.
    expect(readFileSync(file('notes.md'), 'utf8')).toBe('saved on disk\n');
    const write = ofKind(editor.updates, 'tool_call').find((c) => c.title === 'Write notes.md')!;
    expect(write.content).toEqual([{ type: 'diff', path: file('notes.md'), oldText: 'unsaved in the editor\n', newText: 'rewritten by the agent\n' }]);
    expect(editor.questions).toHaveLength(1);
    expect(existsSync(file('notes.md'))).toBe(true);
    editor.close();
  }, 60_000);

  it('starts the MCP servers the editor passes with session/new: their tools join the session', async () => {
    const { server, home } = await setup([call('mcp__editor__echo', { text: 'from the editor' }), { text: 'Echoed.' }]);
    const editor = startEditor(home, server);
    await editor.initialize();
    const mcpServer: McpServer = { name: 'editor', command: process.execPath, args: [join(import.meta.dirname, 'support', 'mcp-test-server.mjs')], env: [] };
    const { sessionId } = await editor.agent.request('session/new', { cwd: home.workspace, mcpServers: [mcpServer] });
    expect((await editor.prompt(sessionId, 'echo something')).stopReason).toBe('end_turn');
    expect(server.requests[0]!.tools?.map((tool) => tool.function.name)).toContain('mcp__editor__echo');
    expect(toolMessages(server.requests[1]!)).toEqual(['echo: from the editor']);
    // Trusted like the user's own servers: its read-only tool ran without a question.
    expect(editor.questions).toEqual([]);
    expect(ofKind(editor.updates, 'tool_call_update')[0]).toMatchObject({ status: 'completed' });
    editor.close();
  }, 60_000);

  it('without a key in the environment, authenticate and session/new answer auth_required saying which variable to set', async () => {
    const { server, home } = await setup([]);
    const editor = startEditor(home, server, { noCredentials: true });
    const init = await editor.initialize();
    const methodId = init.authMethods![0]!.id;
    await expect(editor.agent.request('authenticate', { methodId })).rejects.toMatchObject({ code: -32000, message: expect.stringContaining('OPENAI_API_KEY') });
    await expect(editor.newSession()).rejects.toMatchObject({ code: -32000 });
    expect(server.requests).toEqual([]);
    editor.close();
  }, 60_000);

  it('takes image blocks: they reach the model on the user message, in the OpenAI image shape, beside the text', async () => {
    const { server, home, file } = await setup([{ text: 'A gradient.' }]);
    const png = await writePng(file('shot.png'), 32, 24);
    const editor = startEditor(home, server);
    await editor.initialize();
    const sessionId = await editor.newSession();
    const prompt: ContentBlock[] = [
      { type: 'text', text: 'what is in this picture?' },
      { type: 'image', mimeType: 'image/png', data: png.toString('base64') },
    ];
    expect((await editor.agent.request('session/prompt', { sessionId, prompt })).stopReason).toBe('end_turn');
    const user = server.requests[0]!.messages.find((m) => m.role === 'user')!;
    expect(user.content).toEqual([
      { type: 'text', text: 'what is in this picture?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
    ]);
    // Bytes that are not a whole image are refused before any request, naming the block.
    const broken: ContentBlock[] = [{ type: 'image', mimeType: 'image/png', data: png.subarray(0, png.length / 2).toString('base64') }];
    await expect(editor.agent.request('session/prompt', { sessionId, prompt: broken })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('image 1 is a truncated or damaged PNG') });
    expect(server.requests).toHaveLength(1);
    expect(server.violations).toEqual([]);
    editor.close();
  }, 60_000);

  it('refuses image blocks for a text-only model with an invalid-params error naming the model; nothing is sent', async () => {
    const { server, home, file } = await setup([{ text: 'unused' }]);
    const png = await writePng(file('shot.png'), 8, 8);
    const editor = startEditor(home, server, { model: 'deepseek-chat' });
    await editor.initialize();
    const sessionId = await editor.newSession();
    const prompt: ContentBlock[] = [{ type: 'text', text: 'look' }, { type: 'image', mimeType: 'image/png', data: png.toString('base64') }];
    await expect(editor.agent.request('session/prompt', { sessionId, prompt })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('deepseek-chat takes text only') });
    expect(server.requests).toEqual([]);
    editor.close();
  }, 60_000);

  it('answers a provider failure with an error response carrying the message', async () => {
    const { server, home } = await setup([{ kind: 'http_error', status: 401, body: { error: { message: 'bad key for this test' } } }]);
    const editor = startEditor(home, server);
    await editor.initialize();
    const sessionId = await editor.newSession();
    await expect(editor.prompt(sessionId, 'hello')).rejects.toThrow(/bad key for this test/);
    editor.close();
  }, 60_000);
});

describe('vibe-agent acp: paths are confined before any request leaves for the editor', () => {
  it('the diff preview and the tools send no fs/read_text_file or write for a path outside the workspace, through a symlink, or to a secrets file', async () => {
    const outside = join(mkdtempSync(join(tmpdir(), 'vibe-acp-outside-')), 'outside.txt');
    const { server, home, file } = await setup([
      call('write_file', { path: '../outside.txt', content: 'overwritten\n' }),
      call('edit_file', { path: outside, old_string: 'kept', new_string: 'stolen' }),
      call('write_file', { path: 'link.txt', content: 'through the link\n' }),
      call('edit_file', { path: '.env', old_string: 'KEY=1', new_string: 'KEY=2' }),
      call('edit_file', { path: 'ok.md', old_string: 'old text', new_string: 'new text' }),
      { text: 'Done.' },
    ]);
    writeFileSync(join(home.root, 'outside.txt'), 'kept outside the workspace\n');
    writeFileSync(outside, 'kept outside the workspace\n');
    symlinkSync(outside, file('link.txt'));
    writeFileSync(file('.env'), 'KEY=1\n');
    writeFileSync(file('ok.md'), 'old text\n');
    const editor = startEditor(home, server, { capabilities: { fs: { readTextFile: true, writeTextFile: true } }, answer: () => 'allow_once' });
    await editor.initialize();
    const sessionId = await editor.newSession();
    expect((await editor.prompt(sessionId, 'write everywhere')).stopReason).toBe('end_turn');

    expect(editor.reads.filter((path) => path === file('ok.md'))).not.toHaveLength(0);
    expect(editor.reads.filter((path) => path !== file('ok.md'))).toEqual([]);
    expect(editor.writes).toEqual([{ path: file('ok.md'), content: 'new text\n' }]);
    expect(readFileSync(join(home.root, 'outside.txt'), 'utf8')).toBe('kept outside the workspace\n');
    expect(readFileSync(outside, 'utf8')).toBe('kept outside the workspace\n');
    rmSync(dirname(outside), { recursive: true, force: true });
    const results = toolMessages(server.requests[5]!);
    expect(results.slice(0, 4).every((result) => /outside the workspace|secrets file/.test(result))).toBe(true);
    // The refused calls' previews show the call's own text, never the file's: nothing was read to make them.
    const oldTexts = ofKind(editor.updates, 'tool_call').map((update) => (update.content?.[0]?.type === 'diff' ? update.content[0].oldText : undefined));
    expect(oldTexts).toEqual([null, 'kept', null, 'KEY=1', 'old text\n']);
    editor.close();
  }, 60_000);
});
