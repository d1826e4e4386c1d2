import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { client, ndJsonStream, type RequestPermissionRequest, type SessionNotification } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer, type ServerStep } from './support/chat-server.js';
import { CLI, cliHome } from './support/cli-process.js';
import { cleanedAfterEach } from './support/editor-cleanup.js';

const { agents, servers, homes } = cleanedAfterEach<ChatServer>();

const MODE_IDS = ['ask', 'auto-edit', 'auto', 'yolo', 'plan'];
/** Each question's call, as its title begins: "write a.txt (new, 1 line)" → "write a.txt". */
const asked = (questions: RequestPermissionRequest[]) => questions.map((q) => q.toolCall.title?.split(' (')[0]);
const write = (path: string) => ({ toolCalls: [{ name: 'write_file', arguments: { path, content: `${path}\n` } }] });

/**
 * The SDK's client side over the built `vibe-agent acp`'s stdio. `onQuestion` runs before each
 * permission question is answered (allow, unless it returns false), so a test can act mid-turn.
 */
async function startEditor(script: ServerStep[], args: string[] = [], onQuestion?: (question: RequestPermissionRequest) => Promise<boolean | void>) {
  const server = await startChatServer(script);
  servers.push(server);
  const home = cliHome();
  homes.push(home);
  const child = spawn(process.execPath, [CLI, 'acp', ...args], {
    cwd: home.workspace,
    env: { ...home.env, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  agents.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const updates: SessionNotification[] = [];
  const questions: RequestPermissionRequest[] = [];
  const app = client({ name: 'test-editor' })
    .onNotification('session/update', ({ params }) => {
      updates.push(params);
    })
    .onRequest('session/request_permission', async ({ params }) => {
      questions.push(params);
      const allow = (await onQuestion?.(params)) !== false;
      return { outcome: { outcome: 'selected', optionId: allow ? 'allow_once' : 'reject_once' } };
    });
  const connection = app.connect(ndJsonStream(Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>));
  const agent = connection.agent;
  await agent.request('initialize', { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: 'test-editor', version: '1.0.0' } });
  return {
    agent,
    server,
    home,
    updates,
    questions,
    stderr: () => stderr,
    file: (name: string) => join(home.workspace, name),
    prompt: async (sessionId: string, text: string) => (await agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] })).stopReason,
    setMode: (sessionId: string, modeId: string) => agent.request('session/set_mode', { sessionId, modeId }),
    async close() {
      connection.close();
      child.stdin!.end();
      return new Promise((resolve) => child.once('close', resolve));
    },
  };
}

describe('vibe-agent acp: session modes are the permission policy\'s modes', () => {
  it('lists the modes on new and load; set_mode changes what asks at once, the running turn\'s next call included; plan mode plans; an unknown id is refused', async () => {
    let sessionId = '';
    const editor = await startEditor(
      [write('a.txt'), write('b.txt'), { text: 'Wrote both.' }, write('c.txt'), { text: 'Wrote c.' }, write('d.txt'), { text: 'Not written.' }, write('e.txt'), { text: 'Plan: write e.txt.' }],
      [],
      // The first question (a.txt, in ask mode): the editor switches to auto-edit before it answers.
      async (question) => {
        if (question.toolCall.title?.startsWith('write a.txt')) await editor.setMode(sessionId, 'auto-edit');
        return !question.toolCall.title?.startsWith('write d.txt');
      },
    );
    const opened = await editor.agent.request('session/new', { cwd: editor.home.workspace, mcpServers: [] });
    sessionId = opened.sessionId;
    expect(opened.modes?.currentModeId).toBe('ask');
    expect(opened.modes?.availableModes.map((mode) => mode.id)).toEqual(MODE_IDS);
    for (const mode of opened.modes!.availableModes) expect(mode.name.length && mode.description?.length).toBeGreaterThan(0);

    // Ask mode asks for a.txt; the mode set while that question was open covers b.txt, later in the same turn.
    expect(await editor.prompt(sessionId, 'write a and b')).toBe('end_turn');
    expect(asked(editor.questions)).toEqual(['write a.txt']);
    expect(readFileSync(editor.file('b.txt'), 'utf8')).toBe('b.txt\n');

    // Still auto-edit: a write runs with no question.
    expect(await editor.prompt(sessionId, 'write c')).toBe('end_turn');
    expect(editor.questions).toHaveLength(1);
    expect(existsSync(editor.file('c.txt'))).toBe(true);

    // Back to ask: the write is asked about again (and refused here).
    expect(await editor.setMode(sessionId, 'ask')).toEqual({});
    expect(await editor.prompt(sessionId, 'write d')).toBe('end_turn');
    expect(asked(editor.questions)).toEqual(['write a.txt', 'write d.txt']);
    expect(existsSync(editor.file('d.txt'))).toBe(false);

    // Plan mode: the run gets the plan-mode instructions, and the write is refused without a question.
    await editor.setMode(sessionId, 'plan');
    expect(await editor.prompt(sessionId, 'plan e')).toBe('end_turn');
    expect(editor.questions).toHaveLength(2);
    expect(existsSync(editor.file('e.txt'))).toBe(false);
    const planRun = editor.server.requests.at(-2)!;
    expect(String(planRun.messages[0]!.content)).toContain('Plan mode: only read-only tools run');
    expect(String(editor.server.requests.at(-1)!.messages.at(-1)!.content)).toContain('plan mode: only read-only tools run, and write_file is not one');
    expect(String(editor.server.requests[0]!.messages[0]!.content)).not.toContain('Plan mode');

    // An unknown id: invalid params naming the valid ones; the mode stays.
    const refused = await editor.setMode(sessionId, 'careful').then(() => undefined, (error: unknown) => error as { code: number; message: string });
    expect(refused?.code).toBe(-32602);
    expect(refused?.message).toContain(`unknown mode "careful"; this agent's modes are ${MODE_IDS.join(', ')}`);
    await expect(editor.setMode('no-such-session', 'ask')).rejects.toMatchObject({ code: -32002 });

    // A load reopens the session in the configured mode, listed the same way.
    const loaded = await editor.agent.request('session/load', { sessionId, cwd: editor.home.workspace, mcpServers: [] });
    expect(loaded.modes?.currentModeId).toBe('ask');
    expect(loaded.modes?.availableModes.map((mode) => mode.id)).toEqual(MODE_IDS);
    // Nothing inside the session changes the mode on its own, so no current_mode_update was sent.
    expect(editor.updates.filter((n) => n.update.sessionUpdate === 'current_mode_update')).toEqual([]);
    expect(editor.server.violations).toEqual([]);
    expect(await editor.close()).toBe(0);
    expect(editor.stderr()).toBe('');
  }, 120_000);

  it('a session starts in the mode --permission-mode names', async () => {
    const editor = await startEditor([], ['--permission-mode', 'auto-edit']);
    const opened = await editor.agent.request('session/new', { cwd: editor.home.workspace, mcpServers: [] });
    expect(opened.modes?.currentModeId).toBe('auto-edit');
    expect(await editor.close()).toBe(0);
  }, 60_000);
});
