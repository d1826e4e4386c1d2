/**
 * A history made on one provider, model or wire goes on elsewhere: what only its maker accepts
 * (reasoning, signatures, server-search blocks) is left out, and the run says so once. Through the
 * real SDKs against the strict local servers.
 */
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTheme } from '../src/cli/display/theme.js';
import { InteractiveSession } from '../src/cli/tui/interactive.js';
import { run } from '../src/core/loop.js';
import { LeftOutNotes, leftOutMessage } from '../src/core/left-out-notes.js';
import type { AgentEvent } from '../src/contracts/events.js';
import type { Message } from '../src/contracts/messages.js';
import type { Provider } from '../src/contracts/provider.js';
import { AnthropicProvider } from '../src/providers/anthropic/anthropic-provider.js';
import { GoogleProvider } from '../src/providers/google/google-provider.js';
import { OpenAIProvider } from '../src/providers/openai/openai-provider.js';
import { ResponsesProvider } from '../src/providers/openai-responses/responses-provider.js';
import { defineTool } from '../src/tools/define-tool.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { startAnthropicServer, type AnthropicStep } from './support/anthropic-server.js';
import { startChatServer, type ServerStep as ChatStep } from './support/chat-server.js';
import { startGeminiServer, type GeminiStep } from './support/gemini-server.js';
import { ofType } from './support/harness.js';
import { VirtualTerminal } from './support/virtual-terminal.js';
import { testServices } from './support/tui-services.js';
import { startResponsesServer, type ResponsesStep } from './support/responses-server.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

const count = defineTool({
  name: 'count',
  description: 'Counts the letters of a word.',
  parameters: z.object({ word: z.string() }),
  readOnly: true,
  execute: async ({ word }) => `${word} has ${word.length} letters`,
});
const tools = () => new ToolRegistry([count]);

async function responses(script: ResponsesStep[]) {
  const server = await startResponsesServer(script);
  open.push(server);
  return { server, provider: new ResponsesProvider({ apiKey: 'k', baseURL: server.url }) };
}
async function chat(script: ChatStep[], replayReasoning = false) {
  const server = await startChatServer(script);
  open.push(server);
  return { server, provider: new OpenAIProvider({ apiKey: 'k', baseURL: server.url, replayReasoning }) };
}
async function anthropic(script: AnthropicStep[], options: { webSearch?: boolean } = {}) {
  const server = await startAnthropicServer(script);
  open.push(server);
  return { server, provider: new AnthropicProvider({ apiKey: 'sk-ant-test', baseURL: server.url, thinkingBudget: 2048, ...(options.webSearch ? { webSearch: { maxUses: 2, maxSearches: 5 } } : {}) }) };
}
async function gemini(script: GeminiStep[]) {
  const server = await startGeminiServer(script);
  open.push(server);
  return { server, provider: new GoogleProvider({ apiKey: 'k', baseURL: server.url, includeThoughts: true }) };
}

async function session(provider: Provider, model: string, input: string, messages: Message[] = [], leftOutNotes?: LeftOutNotes) {
  const events: AgentEvent[] = [];
  const result = await run({ provider, model, input, messages, tools: tools(), ...(leftOutNotes ? { leftOutNotes } : {}) }, (event) => events.push(event));
  return { result, events, notes: ofType(events, 'context_warning').filter((warning) => warning.leftOut) };
}

/** Two rounds with a call: the second request sends the same history again. */
const CALL_THEN_ANSWER = (word: string) => [{ toolCalls: [{ name: 'count', arguments: { word } }] }, { text: `${word} counted` }];

describe('reasoning made elsewhere is left out and noted once per run', () => {
  it('Responses (o4-mini) → Anthropic: the encrypted items stay behind, one note over two requests', async () => {
    const first = await responses([{ reasoning: 'Think about cat.', toolCalls: [{ name: 'count', arguments: { word: 'cat' } }] }, { reasoning: 'Done.', text: 'cat 3' }]);
    const made = await session(first.provider, 'o4-mini', 'Count cat.');
    const second = await anthropic(CALL_THEN_ANSWER('emu'));
    const { result, events, notes } = await session(second.provider, 'claude-sonnet-4-5', 'And emu?', made.result.messages);
    expect(second.server.violations).toEqual([]);
    expect(result.answer).toBe('emu counted');
    expect(second.server.requests).toHaveLength(2);
    expect(JSON.stringify(second.server.requests)).not.toMatch(/encrypted|Think about cat/);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.leftOut).toEqual([{ part: 'reasoning', from: { provider: 'openai', model: 'o4-mini', wire: 'responses' }, to: { provider: 'anthropic', model: 'claude-sonnet-4-5' }, turns: 2 }]);
    expect(notes[0]!.message).toBe(
      'reasoning from 2 earlier turns was made by openai/o4-mini (responses) and cannot be sent to anthropic/claude-sonnet-4-5; it is left out (the text, calls and results carry over).',
    );
    // Before the reply it concerns, after the request's usage.
    expect(events.findIndex((event) => event === notes[0])).toBeLessThan(events.findIndex((event) => event.type === 'assistant_message'));
  });

  it('Anthropic thinking → another Claude model (a /model switch): the signed blocks stay behind; the same model carries them with no note', async () => {
    // One server: it checks each signature against the model it signed for.
    const server = await anthropic([
      { reasoning: 'Signed thoughts.', toolCalls: [{ id: 'toolu_y', name: 'count', arguments: { word: 'yak' } }] },
      { reasoning: 'More.', toolCalls: [{ id: 'toolu_o', name: 'count', arguments: { word: 'ox' } }] },
      { text: 'both counted' },
      { text: 'still' },
      { text: 'still' },
    ]);
    const made = await session(server.provider, 'claude-a', 'Count yak and ox.');
    const kept = await session(server.provider, 'claude-a', 'Sure?', made.result.messages);
    expect(JSON.stringify(server.server.requests[3])).toContain('Signed thoughts.');
    expect(kept.notes).toEqual([]);

    const moved = await session(server.provider, 'claude-b', 'Sure?', made.result.messages);
    expect(server.server.violations).toEqual([]);
    expect(JSON.stringify(server.server.requests[4])).not.toContain('Signed thoughts.');
    expect(moved.notes.map((note) => note.leftOut)).toEqual([[{ part: 'reasoning', from: { provider: 'anthropic', model: 'claude-a' }, to: { provider: 'anthropic', model: 'claude-b' }, turns: 2 }]]);
  });

  it('Gemini thought signatures → Chat Completions, and Chat reasoning text → Gemini', async () => {
    const first = await gemini([{ reasoning: 'Gemini ponders.', toolCalls: [{ name: 'count', arguments: { word: 'gnu' } }] }, { text: 'gnu 3' }]);
    const made = await session(first.provider, 'gemini-2.5-pro', 'Count gnu.');
    const second = await chat(CALL_THEN_ANSWER('bee'), true);
    const onChat = await session(second.provider, 'deepseek-reasoner', 'And bee?', made.result.messages);
    expect(second.server.violations).toEqual([]);
    expect(JSON.stringify(second.server.requests)).not.toMatch(/thought|ponders/i);
    expect(onChat.notes.map((note) => note.message)).toEqual([
      'reasoning from 1 earlier turn was made by google/gemini-2.5-pro and cannot be sent to openai/deepseek-reasoner (chat); it is left out (the text, calls and results carry over).',
    ]);

    const third = await chat([{ reasoning: 'Chat muses.', toolCalls: [{ name: 'count', arguments: { word: 'elk' } }] }, { text: 'elk 3' }], true);
    const chatMade = await session(third.provider, 'deepseek-reasoner', 'Count elk.');
    const fourth = await gemini([{ text: 'ok' }]);
    const onGemini = await session(fourth.provider, 'gemini-2.5-pro', 'Fine?', chatMade.result.messages);
    expect(fourth.server.violations).toEqual([]);
    expect(JSON.stringify(fourth.server.requests)).not.toContain('Chat muses.');
    expect(onGemini.notes.map((note) => note.leftOut)).toEqual([[{ part: 'reasoning', from: { provider: 'openai', model: 'deepseek-reasoner', wire: 'chat' }, to: { provider: 'google', model: 'gemini-2.5-pro' }, turns: 1 }]]);
  });

  it("Anthropic's server-search blocks → the Responses wire: the searches are noted as left out", async () => {
    const first = await anthropic(
      [{ kind: 'web_search', query: 'node 24', results: [{ url: 'https://nodejs.org/', title: 'Node.js' }], reply: { text: 'Node 24 is out.' } }],
      { webSearch: true },
    );
    const made = await session(first.provider, 'claude-a', 'News?');
    expect(first.server.violations).toEqual([]);
    const second = await responses([{ text: 'noted' }]);
    const { notes } = await session(second.provider, 'gpt-4.1', 'Thanks.', made.result.messages);
    expect(second.server.violations).toEqual([]);
    expect(JSON.stringify(second.server.requests[0]!.input)).not.toMatch(/server_tool_use|encrypted/);
    expect(notes.map((note) => note.message)).toEqual([
      'web searches from 1 earlier turn were made by anthropic/claude-a and cannot be sent to openai/gpt-4.1 (responses); they are left out (the text, calls and results carry over).',
    ]);
  });

  it('the same provider, model and wire: everything is carried and nothing is noted', async () => {
    const first = await responses([{ reasoning: 'Mine.', toolCalls: [{ name: 'count', arguments: { word: 'cow' } }] }, { text: 'cow 3' }, ...CALL_THEN_ANSWER('pig')]);
    const made = await session(first.provider, 'o4-mini', 'Count cow.');
    const { notes, result } = await session(first.provider, 'o4-mini', 'And pig?', made.result.messages);
    expect(first.server.violations).toEqual([]);
    expect(result.answer).toBe('pig counted');
    expect(notes).toEqual([]);
  });
});

describe('the note is only a report', () => {
  it('the request is byte for byte the one a history without the foreign parts makes', async () => {
    const first = await responses([{ reasoning: 'Think.', toolCalls: [{ id: 'call_1', name: 'count', arguments: { word: 'owl' } }] }, { reasoning: 'Ok.', text: 'owl 3' }]);
    const made = await session(first.provider, 'o4-mini', 'Count owl.');
    const stripped = made.result.messages.map((message) => (message.role === 'assistant' ? { role: message.role, content: message.content, toolCalls: message.toolCalls } : message));
    const withData = await anthropic([{ text: 'a' }]);
    const without = await anthropic([{ text: 'a' }]);
    const noted = await session(withData.provider, 'claude-x', 'Next?', made.result.messages);
    const plain = await session(without.provider, 'claude-x', 'Next?', stripped);
    expect(noted.notes).toHaveLength(1);
    expect(plain.notes).toEqual([]);
    expect(JSON.stringify(withData.server.requests[0])).toBe(JSON.stringify(without.server.requests[0]));
  });

  it('a conversation that passes one LeftOutNotes to each run is told once, and again only when something else is left out', async () => {
    const later = await anthropic([
      { reasoning: 'A thinks.', toolCalls: [{ id: 'toolu_a', name: 'count', arguments: { word: 'ant' } }] },
      { text: 'ant 3' },
      { reasoning: 'B thinks.', toolCalls: [{ id: 'toolu_b', name: 'count', arguments: { word: 'bat' } }] },
      { text: 'bat 3' },
      { text: 'fine' },
      { text: 'back' },
    ]);
    const made = await session(later.provider, 'claude-a', 'Count ant.');
    const notes = new LeftOutNotes();
    const one = await session(later.provider, 'claude-b', 'Count bat.', made.result.messages, notes);
    const two = await session(later.provider, 'claude-b', 'Fine?', one.result.messages, notes);
    expect(one.notes).toHaveLength(1);
    expect(two.notes).toEqual([]);
    // Back to claude-a: its own thinking goes again, claude-b's is left out: a new note.
    const three = await session(later.provider, 'claude-a', 'Back?', two.result.messages, notes);
    expect(later.server.violations).toEqual([]);
    expect(three.notes.map((note) => note.leftOut)).toEqual([[{ part: 'reasoning', from: { provider: 'anthropic', model: 'claude-b' }, to: { provider: 'anthropic', model: 'claude-a' }, turns: 1 }]]);
  });

  it('names each maker in one note when the history went through several', () => {
    const to = { provider: 'google', model: 'gemini-2.5-pro' };
    expect(
      leftOutMessage([
        { part: 'reasoning', from: { provider: 'openai', model: 'o4-mini', wire: 'responses' }, to, turns: 3 },
        { part: 'reasoning', from: { provider: 'anthropic', model: 'claude-a' }, to, turns: 1 },
      ]),
    ).toBe(
      'reasoning from 3 earlier turns was made by openai/o4-mini (responses) and cannot be sent to google/gemini-2.5-pro; it is left out; reasoning from 1 earlier turn was made by anthropic/claude-a and cannot be sent to google/gemini-2.5-pro; it is left out (the text, calls and results carry over).',
    );
  });
});

/** A terminal's stdin: the test types into it. */
class TypedInput extends EventEmitter {
  setRawMode() {}
  resume() {}
  pause() {}
  type(text: string) {
    this.emit('data', Buffer.from(text));
  }
}

describe('in the terminal UI', () => {
  it('after /model, the notice line says once for the conversation what the requests leave out', async () => {
    const { server, provider } = await anthropic([
      { reasoning: 'A thinks.', toolCalls: [{ id: 'toolu_a', name: 'count', arguments: { word: 'ant' } }] },
      { text: 'ant 3' },
      { toolCalls: [{ id: 'toolu_b', name: 'count', arguments: { word: 'bat' } }] },
      { text: 'bat 3' },
      { text: 'all fine' },
    ]);
    const terminal = new VirtualTerminal(260, 40);
    const input = new TypedInput();
    // The conversation core keeps one LeftOutNotes for the conversation.
    const registry = tools();
    const services = await testServices(provider, { tools: registry, parts: { model: 'claude-a' } });
    const session = new InteractiveSession({ input, output: terminal.output, theme: createTheme(false), services, providerName: provider.name, model: 'claude-a', tools: registry, workspace: '/tmp/project', maxTurns: 5 });
    const exited = session.run();
    const idle = (screen: string) => !/· working\b/.test(screen.split('\n').at(-1) ?? '');
    input.type('Count ant.\r');
    await terminal.waitFor((s) => s.includes('ant 3') && idle(s));
    input.type('/model claude-b\r');
    await terminal.waitFor('Model switched to claude-b.');
    input.type('Count bat.\r');
    await terminal.waitFor((s) => s.includes('bat 3') && idle(s));
    input.type('Fine?\r');
    await terminal.waitFor((s) => s.includes('all fine') && idle(s));
    expect(server.violations).toEqual([]);
    expect(server.requests).toHaveLength(5);
    const shown = terminal.all();
    expect(shown.split('left out').length - 1).toBe(1);
    expect(shown).toContain('⚠ reasoning from 1 earlier turn was made by anthropic/claude-a and cannot be sent to anthropic/claude-b; it is left out (the text, calls and results carry over).');
    input.type('/exit\r');
    expect(await exited).toBe(0);
  });
});
