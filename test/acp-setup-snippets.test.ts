import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { client, ndJsonStream, type ClientConnection } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { startAnthropicServer, type AnthropicServer } from './support/anthropic-server.js';
import { CLI, cliHome } from './support/cli-process.js';
import { cleanedAfterEach } from './support/editor-cleanup.js';

/** An editor's `agent_servers` entry (Zed's settings.json, JetBrains' acp.json). */
interface AgentServer {
  type?: string;
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

const DOC = readFileSync(join(import.meta.dirname, '..', 'docs', 'acp.md'), 'utf8');
/** Every `agent_servers` entry in docs/acp.md's JSON blocks, by the editor the text before it names. */
const SNIPPETS = [...DOC.matchAll(/^(.*)\n\n```json\n([\s\S]*?)\n```/gm)].flatMap(([, intro, body]) => {
  const parsed = JSON.parse(body!) as { agent_servers?: Record<string, AgentServer> };
  return Object.entries(parsed.agent_servers ?? {}).map(([name, server]) => ({ editor: intro!.split(' (')[0]!, name, server }));
});

const { agents, servers, homes } = cleanedAfterEach<AnthropicServer>();

/**
 * Starts the agent as the editor would from a snippet: its args, its env (each key replaced by a
 * test one) over a bare home, and `extraEnv` (a test server's base URL). Answers the SDK's agent side.
 */
function startFromSnippet(server: AgentServer, extraEnv: Record<string, string> = {}) {
  expect(server.command).toBe('vibe-agent');
  const home = cliHome();
  homes.push(home);
  const keys = Object.fromEntries(Object.keys(server.env ?? {}).map((name) => [name, `test-key-for-${name}`]));
  const child = spawn(process.execPath, [CLI, ...(server.args ?? [])], { cwd: home.workspace, env: { ...home.env, ...keys, ...extraEnv }, stdio: ['pipe', 'pipe', 'pipe'] });
  agents.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const text: string[] = [];
  const app = client({ name: 'snippet-editor' }).onNotification('session/update', ({ params }) => {
    if (params.update.sessionUpdate === 'agent_message_chunk' && params.update.content.type === 'text') text.push(params.update.content.text);
  });
  const connection: ClientConnection = app.connect(ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>));
  return {
    agent: connection.agent,
    home,
    text: () => text.join(''),
    stderr: () => stderr,
    close: () => {
      connection.close();
      child.stdin!.end();
    },
  };
}

describe("docs/acp.md's editor snippets, run as written", () => {
  it('the page holds a Zed snippet in its current custom-agent format and a JetBrains one', () => {
    const zed = SNIPPETS.find((snippet) => snippet.editor === 'Zed');
    expect(zed?.server).toMatchObject({ type: 'custom', command: 'vibe-agent', args: ['acp'] });
    expect(SNIPPETS.map((snippet) => snippet.editor)).toContain('JetBrains IDEs');
  });

  it.each(SNIPPETS.map((snippet) => [snippet.editor, snippet] as const))('%s: with only the key from the snippet, session/new opens a session (no "Missing: VIBE_MODEL")', async (_editor, snippet) => {
    const editor = startFromSnippet(snippet.server);
    const init = await editor.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: 'snippet-editor', version: '1.0.0' } });
    expect(init.protocolVersion).toBe(1);
    await expect(editor.agent.request('authenticate', { methodId: init.authMethods![0]!.id })).resolves.toBeDefined();
    const { sessionId } = await editor.agent.request('session/new', { cwd: editor.home.workspace, mcpServers: [] });
    expect(sessionId, editor.stderr()).toMatch(/\S/);
    editor.close();
  }, 60_000);

  it("only ANTHROPIC_API_KEY in the editor's env (no --provider, no model): the prompt goes to Anthropic with its default model", async () => {
    const server = await startAnthropicServer([{ text: 'hello from claude' }]);
    servers.push(server);
    const zed = SNIPPETS.find((snippet) => snippet.editor === 'Zed')!.server;
    // Zed's snippet with the Anthropic key in place of the OpenAI one; the base URL only points the SDK at the test server.
    const editor = startFromSnippet({ ...zed, env: { ANTHROPIC_API_KEY: '…' } }, { ANTHROPIC_BASE_URL: server.url });
    await editor.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: 'snippet-editor', version: '1.0.0' } });
    const { sessionId } = await editor.agent.request('session/new', { cwd: editor.home.workspace, mcpServers: [] });
    const answer = await editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'say hello' }] });
    expect(answer.stopReason, editor.stderr()).toBe('end_turn');
    expect(server.requests[0]!.model).toBe('claude-sonnet-4-5');
    const sent = server.headers[0]!;
    expect(sent['x-api-key'] ?? sent.authorization?.replace(/^Bearer /, '')).toBe('test-key-for-ANTHROPIC_API_KEY');
    expect(editor.text()).toBe('hello from claude');
    expect(server.violations).toEqual([]);
    editor.close();
  }, 60_000);
});
