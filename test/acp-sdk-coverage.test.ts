/**
 * The official ACP SDK's client side drives `vibe-agent acp` over real stdio through everything
 * the agent advertises in `initialize` (and in `session/new`): each advertised capability maps to
 * the methods and content that exercise it, and the test fails when the agent advertises
 * something this file does not know how to exercise, or that was not exercised.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { client, ndJsonStream, type ContentBlock, type InitializeResponse, type McpServer, type NewSessionResponse, type SessionNotification } from '@agentclientprotocol/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { startChatServer, type ChatRequestBody } from './support/chat-server.js';
import { CLI, cliHome } from './support/cli-process.js';
import { writePng } from './support/image-fixtures.js';
import { startMcpHttpServer } from './support/mcp-http-server.js';

const home = cliHome();
afterAll(() => home.cleanup());

/** What exercises each thing an agent can advertise: a method, or a kind of content, by name. */
function advertised(init: InitializeResponse, session: NewSessionResponse): string[] {
  const caps = init.agentCapabilities ?? {};
  const known = new Set(['loadSession', 'promptCapabilities', 'mcpCapabilities', 'sessionCapabilities', 'auth', '_meta']);
  const unknown = Object.keys(caps).filter((key) => !known.has(key));
  if (unknown.length) throw new Error(`the agent advertises ${unknown.join(', ')}, which this test does not exercise`);
  const wanted = ['initialize', 'session/new', 'session/prompt', 'session/cancel', 'session/update'];
  if (init.authMethods?.length) wanted.push('authenticate');
  if (caps.loadSession) wanted.push('session/load');
  for (const [key, on] of Object.entries(caps.sessionCapabilities ?? {})) if (on && key !== '_meta') wanted.push(key === 'additionalDirectories' ? 'session/new:additionalDirectories' : `session/${key}`);
  if (caps.auth?.logout) wanted.push('logout');
  for (const [key, on] of Object.entries(caps.promptCapabilities ?? {})) if (on && key !== '_meta') wanted.push(`prompt:${key}`);
  for (const [key, on] of Object.entries(caps.mcpCapabilities ?? {})) if (on && key !== '_meta') wanted.push(`mcp:${key}`);
  if (session.modes) wanted.push('session/set_mode');
  if (session.configOptions?.length) wanted.push('session/set_config_option');
  return wanted.sort();
}

describe('the ACP SDK client drives every method vibe-agent acp advertises', () => {
  it('initialize, authenticate, session/new with HTTP and SSE MCP servers, a prompt with image and embedded context whose calls read and write through the editor and ask permission, cancel, load', async () => {
    const echoOf = (body: ChatRequestBody) => body.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    const model = await startChatServer([
      { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.md' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.md', content: 'rewritten\n' } }] },
      { toolCalls: [{ name: 'mcp__overhttp__echo', arguments: { text: 'via http' } }, { name: 'mcp__oversse__echo', arguments: { text: 'via sse' } }] },
      (body) => ({ text: `Done: ${echoOf(body).slice(-2).join(' | ')}` }),
      { kind: 'slow', reply: { text: 'one two three four five six seven eight nine ten' }, frameDelayMs: 1000 },
      { text: 'After the load.' },
    ]);
    const overHttp = await startMcpHttpServer('streamable');
    const overSse = await startMcpHttpServer('sse-only');
    const agentProcess = spawn(process.execPath, [CLI, 'acp'], {
      cwd: home.workspace,
      env: { ...home.env, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: model.url, VIBE_MODEL: 'test-model', VIBE_MCP_WAIT: '60' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    agentProcess.stderr.on('data', (chunk) => (stderr += chunk));
    try {
      const used = new Set<string>();
      const updates: SessionNotification[] = [];
      let wake: () => void = () => undefined;
      const buffers = new Map([[join(home.workspace, 'notes.md'), 'unsaved in the editor\n']]);
      writeFileSync(join(home.workspace, 'notes.md'), 'saved on disk\n');
      const app = client({ name: 'coverage-editor' })
        .onNotification('session/update', ({ params }) => {
          used.add('session/update');
          updates.push(params);
          wake();
        })
        .onRequest('session/request_permission', ({ params }) => {
          used.add('session/request_permission');
          const allow = params.options.find((option) => option.kind === 'allow_once')!;
          return { outcome: { outcome: 'selected', optionId: allow.optionId } };
        })
        .onRequest('fs/read_text_file', ({ params }) => {
          used.add('fs/read_text_file');
          return { content: buffers.get(params.path) ?? readFileSync(params.path, 'utf8') };
        })
        .onRequest('fs/write_text_file', ({ params }) => {
          used.add('fs/write_text_file');
          buffers.set(params.path, params.content);
          return {};
        });
      const connection = app.connect(ndJsonStream(Writable.toWeb(agentProcess.stdin) as WritableStream<Uint8Array>, Readable.toWeb(agentProcess.stdout) as ReadableStream<Uint8Array>));
      const agent = connection.agent;
      const waitForUpdate = async (from: number, kind: string) => {
        while (!updates.slice(from).some((n) => n.update.sessionUpdate === kind)) await new Promise<void>((resolve) => (wake = resolve));
      };

      const init = await agent.request('initialize', { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true } }, clientInfo: { name: 'coverage-editor', version: '1.0.0' } });
      used.add('initialize');
      expect(init.protocolVersion).toBe(1);
      expect(await agent.request('authenticate', { methodId: init.authMethods![0]!.id })).toEqual({});
      used.add('authenticate');

      const mcpServers: McpServer[] = [
        { type: 'http', name: 'overhttp', url: overHttp.url, headers: [] },
        { type: 'sse', name: 'oversse', url: overSse.url, headers: [] },
      ];
      const session = await agent.request('session/new', { cwd: home.workspace, mcpServers });
      used.add('session/new').add('mcp:http').add('mcp:sse');
      const sessionId = session.sessionId;

      const png = await writePng(join(home.workspace, 'shot.png'), 16, 16);
      const prompt: ContentBlock[] = [
        { type: 'text', text: 'rewrite the notes, then echo over both servers' },
        { type: 'image', mimeType: 'image/png', data: png.toString('base64') },
        { type: 'resource', resource: { uri: `file://${join(home.workspace, 'spec.md')}`, text: 'the spec says: rewrite' } },
      ];
      const answered = await agent.request('session/prompt', { sessionId, prompt });
      used.add('session/prompt').add('prompt:image').add('prompt:embeddedContext');
      expect(answered.stopReason).toBe('end_turn');
      const user = model.requests[0]!.messages.find((m) => m.role === 'user')!;
      expect(JSON.stringify(user.content)).toContain('the spec says: rewrite');
      expect(JSON.stringify(user.content)).toContain(`data:image/png;base64,${png.toString('base64')}`);
      expect(echoOf(model.requests[1]!)[0]).toContain('unsaved in the editor');
      expect(buffers.get(join(home.workspace, 'notes.md'))).toBe('rewritten\n');
      expect(readFileSync(join(home.workspace, 'notes.md'), 'utf8')).toBe('saved on disk\n');
      const echoes = echoOf(model.requests[3]!).slice(-2);
      expect(echoes[0]).toContain('via http');
      expect(echoes[1]).toContain('via sse');

      const before = updates.length;
      const slow = agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'count slowly' }] });
      await waitForUpdate(before, 'agent_message_chunk');
      await agent.notify('session/cancel', { sessionId });
      used.add('session/cancel');
      expect((await slow).stopReason).toBe('cancelled');

      const replayFrom = updates.length;
      expect(await agent.request('session/load', { sessionId, cwd: home.workspace, mcpServers })).toMatchObject({ modes: { currentModeId: 'ask' } });
      used.add('session/load');
      expect(await agent.request('session/set_mode', { sessionId, modeId: 'auto-edit' })).toEqual({});
      used.add('session/set_mode');
      const replayed = updates.slice(replayFrom).map((n) => n.update);
      expect(replayed.filter((u) => u.sessionUpdate === 'user_message_chunk')).toHaveLength(2);
      expect(replayed.filter((u) => u.sessionUpdate === 'tool_call').length).toBeGreaterThanOrEqual(4);
      expect((await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'still there?' }] })).stopReason).toBe('end_turn');

      const wanted = advertised(init, session);
      expect(wanted.filter((method) => !used.has(method))).toEqual([]);
      // The editor's side of the protocol the agent used: permission questions and the fs methods it was offered.
      expect([...used].filter((method) => !wanted.includes(method)).sort()).toEqual(['fs/read_text_file', 'fs/write_text_file', 'session/request_permission']);
      expect(model.violations).toEqual([]);
      connection.close();
      agentProcess.stdin.end();
      expect(await new Promise((resolve) => agentProcess.once('close', resolve))).toBe(0);
      expect(stderr).toBe('');
    } finally {
      if (agentProcess.exitCode === null) agentProcess.kill();
      await Promise.all([model.close(), overHttp.close(), overSse.close()]);
    }
  }, 120_000);
});
