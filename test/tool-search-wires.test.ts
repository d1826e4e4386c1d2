/**
 * Tool search with 200 MCP tools from five real SDK servers over stdio, on every wire through the
 * real SDKs and the local wire servers: the tools sent are byte-identical on all 20 requests of a
 * session, the model finds, loads and calls a deferred tool through the bridge, and what the
 * bridge refuses (a tool not loaded, one loaded in the same reply, arguments against its schema).
 */
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../src/core/loop.js';
import type { AgentEvent } from '../src/contracts/events.js';
import type { Provider } from '../src/contracts/provider.js';
import type { ScriptedReply } from '../src/providers/scripted.js';
import { AnthropicProvider } from '../src/providers/anthropic/anthropic-provider.js';
import { GoogleProvider } from '../src/providers/google/google-provider.js';
import { OpenAIProvider } from '../src/providers/openai/openai-provider.js';
import { ResponsesProvider } from '../src/providers/openai-responses/responses-provider.js';
import { promptJsonProvider } from '../src/providers/prompt-json/prompt-json-provider.js';
import { startAnthropicServer } from './support/anthropic-server.js';
import { startChatServer } from './support/chat-server.js';
import { startGeminiServer } from './support/gemini-server.js';
import { startResponsesServer } from './support/responses-server.js';
import { ofType } from './support/harness.js';
import { searchRegistry, startManyTools, type ManyTools } from './support/many-tools.js';

let many: ManyTools;
beforeAll(async () => {
  many = await startManyTools();
}, 180_000);
afterAll(async () => {
  await many?.close();
});

type Call = { name: string; arguments: Record<string, unknown> };
const search = (query: string): Call => ({ name: 'tool_search', arguments: { query } });
const bridged = (name: string, args: Record<string, unknown>): Call => ({ name: 'call_tool', arguments: { name, arguments: args } });
const INVOICE = 'mcp__billing__create_invoice';
const DEAL = 'mcp__crm__create_deal';

/** The 20 replies of the session: each a list of calls, the last the answer. */
function sessionReplies(oneCallPerReply: boolean): Array<Call[] | string> {
  const replies: Array<Call[] | string> = [
    [search('create invoice')],
    [bridged(INVOICE, { title: 'March' })],
    [bridged(INVOICE, { owner: 5 })],
    [bridged(DEAL, { title: 'Acme' })],
    oneCallPerReply ? [search(`select:${DEAL}`)] : [search(`select:${DEAL}`), bridged(DEAL, { title: 'Acme' })],
    [bridged(DEAL, { title: 'Acme' })],
  ];
  for (let round = replies.length + 1; round < 20; round++) replies.push([bridged(INVOICE, { title: `round ${round}` })]);
  replies.push('done');
  return replies;
}

const nativeStep = (reply: Call[] | string): ScriptedReply => (typeof reply === 'string' ? { text: reply } : { toolCalls: reply });
const promptJsonStep = (reply: Call[] | string): ScriptedReply => ({ text: JSON.stringify(typeof reply === 'string' ? { answer: reply } : { tool: reply[0]!.name, arguments: reply[0]!.arguments }) });

interface Wire {
  name: string;
  oneCallPerReply?: boolean;
  start(replies: Array<Call[] | string>): Promise<{ provider: Provider; model: string; toolsSent(): string[]; violations: string[]; close(): Promise<void> }>;
}

const WIRES: Wire[] = [
  {
    name: 'Chat Completions',
    async start(replies) {
      const server = await startChatServer(replies.map(nativeStep));
      return { provider: new OpenAIProvider({ apiKey: 'k', baseURL: server.url }), model: 'gpt-5', toolsSent: () => server.requests.map((body) => JSON.stringify(body.tools)), violations: server.violations, close: () => server.close() };
    },
  },
  {
    name: 'Responses',
    async start(replies) {
      const server = await startResponsesServer(replies.map(nativeStep));
      return { provider: new ResponsesProvider({ apiKey: 'k', baseURL: server.url }), model: 'gpt-5', toolsSent: () => server.requests.map((body) => JSON.stringify(body.tools)), violations: server.violations, close: () => server.close() };
    },
  },
  {
    name: 'Anthropic Messages (bridge)',
    async start(replies) {
      const server = await startAnthropicServer(replies.map(nativeStep));
      return { provider: new AnthropicProvider({ apiKey: 'sk-ant-test', baseURL: server.url }), model: 'claude-sonnet-4-5', toolsSent: () => server.requests.map((body) => JSON.stringify(body.tools)), violations: server.violations, close: () => server.close() };
    },
  },
  {
    name: 'Gemini',
    async start(replies) {
      const server = await startGeminiServer(replies.map(nativeStep));
      return { provider: new GoogleProvider({ apiKey: 'k', baseURL: server.url }), model: 'gemini-2.5-pro', toolsSent: () => server.requests.map((request) => JSON.stringify(request.body.tools)), violations: server.violations, close: () => server.close() };
    },
  },
  {
    name: 'prompt-JSON',
    oneCallPerReply: true,
    async start(replies) {
      const server = await startChatServer(replies.map(promptJsonStep));
      // The tools are described in the system prompt: that text is what must not change.
      return { provider: promptJsonProvider(new OpenAIProvider({ apiKey: 'k', baseURL: server.url })), model: 'qwen3-coder', toolsSent: () => server.requests.map((body) => String(body.messages[0]!.content)), violations: server.violations, close: () => server.close() };
    },
  },
];

describe.each(WIRES)('tool search on $name', (wire) => {
  it('sends the byte-identical tools on all 20 requests; finds, loads and calls a deferred tool through the bridge; refuses what it must', async () => {
    const replies = sessionReplies(wire.oneCallPerReply === true);
    const session = await wire.start(replies);
    try {
      const { registry } = searchRegistry(many);
      const events: AgentEvent[] = [];
      const result = await run({ provider: session.provider, model: session.model, system: 'You are a helpful agent.', input: 'File the March invoice.', tools: registry, maxTurns: 30, retry: { maxRetries: 0, baseDelayMs: 5, maxDelayMs: 10 } }, (event) => events.push(event));
      expect(session.violations).toEqual([]);
      expect(result).toMatchObject({ stopReason: 'answered', answer: 'done', turns: 20 });

      const sent = session.toolsSent();
      expect(sent).toHaveLength(20);
      expect(new Set(sent).size).toBe(1);
      // Two tools are offered, and tool_search's description lists every deferred tool by name.
      expect(sent[0]).toContain('tool_search');
      expect(sent[0]).toContain('call_tool');
      expect(sent[0]).toContain(`- ${INVOICE}: Creates a new invoice in the billing system.`);
      expect(sent[0]).not.toContain('external_ref');

      const ends = ofType(events, 'tool_call_end');
      const byTurn = (turn: number) => ends.filter((end) => events.indexOf(end) > events.findIndex((event) => event.type === 'turn_start' && event.turn === turn) && events.indexOf(end) < events.findIndex((event) => event.type === 'turn_end' && event.turn === turn));
      expect(byTurn(1)[0]!.output).toMatch(/^8 tools loaded for "create invoice"/);
      expect(byTurn(1)[0]!.output).toContain(`{"name":"${INVOICE}"`);
      expect(byTurn(2)[0]).toMatchObject({ name: INVOICE, status: 'ok', output: 'billing.create_invoice {"title":"March"}' });
      expect(byTurn(3)[0]).toMatchObject({ name: 'call_tool', status: 'error' });
      expect(byTurn(3)[0]!.output).toMatch(/^Invalid arguments for mcp__billing__create_invoice: .*title.*owner/);
      expect(byTurn(4)[0]!.output).toBe(`${DEAL} is not loaded: its schema must be seen before it is called. Call tool_search with "select:${DEAL}", then call it with call_tool in your next reply (a search and a call in the same reply are refused).`);
      if (!wire.oneCallPerReply) expect(byTurn(5)[1]!.output).toContain(`${DEAL} is not loaded`);
      expect(byTurn(6)[0]).toMatchObject({ name: DEAL, status: 'ok', output: 'crm.create_deal {"title":"Acme"}' });
      expect(byTurn(19)[0]).toMatchObject({ name: INVOICE, output: 'billing.create_invoice {"title":"round 19"}' });

      // The call as it ran is the real tool's, with the bridge named.
      const started = ofType(events, 'tool_call_start').find((event) => event.turn === 2)!;
      expect(started).toMatchObject({ call: { name: INVOICE, arguments: '{"title":"March"}' }, via: 'call_tool' });
      const notes = ofType(events, 'tool_search');
      expect(notes[0]).toMatchObject({ action: 'deferred', turn: 1 });
      expect(notes[0]!.action === 'deferred' && notes[0]!.deferred.length).toBe(200);
      expect(notes.filter((note) => note.action === 'search').map((note) => note.action === 'search' && [note.query, note.loaded.length])).toEqual([
        ['create invoice', 8],
        [`select:${DEAL}`, 1],
      ]);
    } finally {
      await session.close();
    }
  }, 120_000);
});

describe('what deferral saves', () => {
  it('the first request is at most a quarter of the tokens of the undeferred one (Chat Completions, o200k)', async () => {
    const firstRequest = async (mode: 'auto' | 'never') => {
      const server = await startChatServer([{ text: 'done' }]);
      try {
        const { registry } = searchRegistry(many, { mode: mode === 'auto' ? { kind: 'auto', percent: 10 } : { kind: 'never' } });
        await run({ provider: new OpenAIProvider({ apiKey: 'k', baseURL: server.url }), model: 'gpt-5', system: 'You are a helpful agent.', input: 'File the March invoice.', tools: registry });
        expect(server.violations).toEqual([]);
        return encode(JSON.stringify(server.requests[0])).length;
      } finally {
        await server.close();
      }
    };
    const [deferred, full] = [await firstRequest('auto'), await firstRequest('never')];
    expect(full).toBeGreaterThan(20_000);
    expect(deferred * 4).toBeLessThanOrEqual(full);
  }, 60_000);
});
