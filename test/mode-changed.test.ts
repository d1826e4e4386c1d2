/**
 * The conversation core owns the permission mode: `setMode` records a numbered `mode_changed`
 * event (in the session file before anyone sees it), a prompt plans when the core's mode is
 * `plan`, a resumed session opens in its settings' mode, and each front end renders the core's
 * mode: ACP (the SDK's client over an in-memory stream) gets `current_mode_update` for a change it
 * did not make, and the terminal UI's Shift+Tab and plan approval go through `setMode` and its
 * status line shows the core's mode.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client as acpClient, ndJsonStream, type SessionNotification } from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createAcpAgent } from '../src/acp/acp-agent.js';
import { editorMode } from '../src/cli/commands/acp/editor-mode.js';
import type { AcpHost } from '../src/acp/acp-host.js';
import { InteractiveSession } from '../src/cli/tui/interactive.js';
import { createTheme } from '../src/cli/display/theme.js';
import type { ConversationParts } from '../src/conversation/conversation-parts.js';
import type { ConversationEvent } from '../src/conversation/conversation-types.js';
import { openConversation } from '../src/conversation/open-conversation.js';
import { imageLimitsFor } from '../src/images/image-limits.js';
import { OpenAIProvider } from '../src/providers/openai/openai-provider.js';
import { ScriptedProvider } from '../src/providers/scripted.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { testConversationParts } from './support/conversation-parts.js';
import { testServices } from './support/tui-services.js';
import { VirtualTerminal } from './support/virtual-terminal.js';
import { FakeInput } from './support/fake-input.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const PLAN_PROMPT = 'Plan mode: only read-only tools run';
const modeChanges = (events: readonly ConversationEvent[]) => events.filter((event) => event.type === 'mode_changed');

async function setUp(script: Parameters<typeof startChatServer>[0]): Promise<{ server: ChatServer; workspace: string; parts: (over?: Partial<ConversationParts>) => ConversationParts }> {
  const server = await startChatServer(script);
  const root = mkdtempSync(join(tmpdir(), 'mode-changed-'));
  const workspace = join(root, 'ws');
  mkdirSync(workspace);
  const env = { XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config'), HOME: join(root, 'home') };
  cleanups.push(() => server.close(), () => rmSync(root, { recursive: true, force: true }));
  const parts = (over: Partial<ConversationParts> = {}) => testConversationParts({ workspace, provider: new OpenAIProvider({ apiKey: 'k', baseURL: server.url }), tools: new ToolRegistry(), env, ...over });
  return { server, workspace, parts };
}

describe('the conversation core\'s mode', () => {
  it('setMode records mode_changed on file before a subscriber sees it, once per change; the next prompt plans; a resume opens in the settings\' mode and records that', async () => {
    const { server, parts } = await setUp([{ text: 'Plan: nothing to change.' }]);
    const conversation = await openConversation(parts());
    const seen: ConversationEvent[] = [];
    const storedWhenSeen: boolean[] = [];
    conversation.subscribe((event) => {
      seen.push(event);
      storedWhenSeen.push(conversation.events(event.seq - 1).some((stored) => stored.seq === event.seq));
    });
    conversation.setMode('plan', { by: 'server' });
    conversation.setMode('plan', { by: 'editor' });
    expect(conversation.mode).toBe('plan');
    expect(seen).toEqual([{ type: 'mode_changed', mode: 'plan', previous: 'ask', by: 'server', seq: 1 }]);
    expect(storedWhenSeen).toEqual([true]);
    expect((await conversation.prompt('what would you change?')).reason).toBe('plan');
    expect(String(server.requests[0]!.messages[0]!.content)).toContain(PLAN_PROMPT);
    const { path, lastSeq } = conversation.state();
    await conversation.close();

    // The settings say ask (testConversationParts' policy): the resume opens in it, and says so.
    const resumed = await openConversation(parts({ session: { kind: 'resume', path: path! } }));
    expect(resumed.mode).toBe('ask');
    expect(modeChanges(resumed.events(lastSeq))).toEqual([{ type: 'mode_changed', mode: 'ask', previous: 'plan', by: 'resume', seq: lastSeq + 1 }]);
    await resumed.close();
    // Opened again in ask: the file's last mode is ask already, nothing more is recorded.
    const again = await openConversation(parts({ session: { kind: 'resume', path: path! } }));
    expect(modeChanges(again.events(lastSeq))).toHaveLength(1);
    await again.close();
  });

  it('a lazy session gets no file from a mode change alone; the mode it holds is recorded when the first prompt runs, before it', async () => {
    const { server, parts } = await setUp([{ text: 'Done.' }]);
    const conversation = await openConversation(parts({ session: { kind: 'new', lazy: true } }));
    const seen: ConversationEvent[] = [];
    conversation.subscribe((event) => seen.push(event));
    conversation.setMode('plan', { by: 'terminal' });
    conversation.setMode('auto-edit', { by: 'terminal' });
    expect(conversation.state().path).toBeUndefined();
    expect(seen).toEqual([]);
    expect((await conversation.prompt('go')).reason).toBe('answered');
    expect(seen[0]).toEqual({ type: 'mode_changed', mode: 'auto-edit', previous: 'ask', by: 'terminal', seq: 1 });
    expect(seen[1]!.type).toBe('run_start');
    expect(modeChanges(conversation.events(0))).toEqual([seen[0]]);
    expect(String(server.requests[0]!.messages[0]!.content)).not.toContain(PLAN_PROMPT);
    await conversation.close();
  });

  it('a held mode is recorded before a later change once another event has made the lazy file', async () => {
    const { parts } = await setUp([]);
    const conversation = await openConversation(parts({ session: { kind: 'new', lazy: true } }));
    conversation.setMode('plan', { by: 'terminal' });
    // Refused at the images step (no such file): its notice makes the file; the held mode waits for a run.
    expect((await conversation.prompt('look', { imagePaths: ['/no/such/image.png'] })).reason).toBe('refused');
    expect(conversation.state().path).toBeDefined();
    conversation.setMode('auto', { by: 'server' });
    expect(modeChanges(conversation.events(0)).map((event) => [event.mode, event.previous, event.by])).toEqual([
      ['plan', 'ask', 'terminal'],
      ['auto', 'plan', 'server'],
    ]);
    await conversation.close();
  });
});

describe('ACP renders the core\'s mode (the SDK\'s client, in memory)', () => {
  it('a change the editor did not make is sent as current_mode_update; its own session/set_mode is not echoed', async () => {
    const { workspace, parts } = await setUp([]);
    const conversation = await openConversation(parts());
    cleanups.push(() => conversation.close());
    const host: AcpHost = {
      version: '0.0.0',
      credentials: async () => ({ variable: undefined, problem: undefined }),
      open: async () => Object.assign(editorMode(conversation), {
        id: conversation.id,
        workspace,
        history: () => conversation.history(),
        tool: () => undefined,
        confine: async () => ({ ok: false as const, reason: 'no files in this test' }),
        images: { refused: 'no images in this test', limits: imageLimitsFor(undefined) },
        prompt: () => {
          throw new Error('no prompts in this test');
        },
        close: async () => {},
      }),
    };
    const toClient = new TransformStream<Uint8Array, Uint8Array>();
    const toAgent = new TransformStream<Uint8Array, Uint8Array>();
    const { app, closeAll } = createAcpAgent(host);
    const agentSide = app.connect(ndJsonStream(toClient.writable, toAgent.readable));
    const updates: SessionNotification[] = [];
    let heard: (() => void) | undefined;
    const editor = acpClient({ name: 'test-editor' })
      .onNotification('session/update', ({ params }) => {
        updates.push(params);
        heard?.();
      })
      .connect(ndJsonStream(toAgent.writable, toClient.readable));
    cleanups.push(async () => {
      editor.close();
      agentSide.close();
      await closeAll();
    });
    const nextUpdate = () => new Promise<void>((resolve) => (heard = resolve));
    await editor.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: 'test-editor', version: '1.0.0' } });
    const { sessionId, modes } = await editor.agent.request('session/new', { cwd: workspace, mcpServers: [] });
    expect(modes?.currentModeId).toBe('ask');

    let update = nextUpdate();
    conversation.setMode('plan', { by: 'server' });
    await update;
    expect(updates).toEqual([{ sessionId, update: { sessionUpdate: 'current_mode_update', currentModeId: 'plan' } }]);

    // The editor's own change is recorded by the core but not sent back to it.
    await editor.agent.request('session/set_mode', { sessionId, modeId: 'auto-edit' });
    expect(conversation.mode).toBe('auto-edit');
    update = nextUpdate();
    conversation.setMode('ask', { by: 'terminal' });
    await update;
    expect(updates.map((one) => one.update)).toEqual([
      { sessionUpdate: 'current_mode_update', currentModeId: 'plan' },
      { sessionUpdate: 'current_mode_update', currentModeId: 'ask' },
    ]);
    expect(modeChanges(conversation.events(0)).map((event) => [event.mode, event.by])).toEqual([
      ['plan', 'server'],
      ['auto-edit', 'editor'],
      ['ask', 'terminal'],
    ]);
  });
});

describe('the terminal UI renders the core\'s mode (in-process, virtual terminal)', () => {
  it('Shift+Tab and plan approval go through setMode; a change made elsewhere shows on the status line; plan mode plans', async () => {
    const plan = 'Plan:\n1. Write the notes.\n\nFiles:\n- notes.txt\n\nCommands:\n- none\n';
    const provider = new ScriptedProvider([{ text: plan }, { text: 'Carried out.' }]);
    const services = await testServices(provider);
    const conversation = services.conversation();
    const seen: ConversationEvent[] = [];
    conversation.subscribe((event) => seen.push(event));
    const terminal = new VirtualTerminal(100, 24);
    const input = new FakeInput();
    const session = new InteractiveSession({ input, output: terminal.output, theme: createTheme(false), services, providerName: provider.name, model: 'test-model', tools: new ToolRegistry(), workspace: '/tmp/project', maxTurns: 5 });
    const exited = session.run();
    const statusLine = (screen: string) => screen.trimEnd().split('\n').at(-1) ?? '';
    await terminal.waitFor('/help for commands');

    input.type('\x1b[Z'); // Shift+Tab
    await terminal.waitFor((screen) => statusLine(screen).includes('auto-edit (⇧Tab)'));
    expect(modeChanges(seen)).toMatchObject([{ mode: 'auto-edit', previous: 'ask', by: 'terminal' }]);

    // Another front end (a server client, an editor) puts the session in plan mode: the terminal shows the core's mode.
    conversation.setMode('plan', { by: 'server' });
    input.type('write the notes');
    await terminal.waitFor((screen) => statusLine(screen).includes('plan mode (⇧Tab)'));
    input.type('\r');
    await terminal.waitFor('Execute this plan?');
    expect(String(provider.requests[0]!.messages[0]!.content)).toContain(PLAN_PROMPT);

    input.type('e');
    await terminal.waitFor((screen) => screen.includes('Carried out.') && statusLine(screen).includes('auto-edit+plan'));
    expect(modeChanges(seen).at(-1)).toMatchObject({ mode: 'auto-edit', previous: 'plan', by: 'plan_approval', planScope: { files: ['notes.txt'], commands: [] } });
    expect(conversation.planScope?.files).toEqual(['notes.txt']);
    expect(String(provider.requests[1]!.messages[0]!.content)).not.toContain(PLAN_PROMPT);

    await terminal.waitFor((screen) => !/· working\b/.test(statusLine(screen)));
    input.type('\x04');
    expect(await exited).toBe(0);
  });
});
