import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../src/contracts/events.js';
import type { Message } from '../src/contracts/messages.js';
import type { Provider } from '../src/contracts/provider.js';
import { callModel, type ModelCall, type ModelCallOptions } from '../src/core/call-model.js';
import { RunTotals } from '../src/core/run-totals.js';
import { OpenAIProvider } from '../src/providers/openai/openai-provider.js';
import { promptJsonProvider } from '../src/providers/prompt-json/prompt-json-provider.js';
import { calculatorTool } from '../src/tools/builtin/calculator.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { startChatServer, type ChatServer, type ServerStep } from './support/chat-server.js';
import { ofType } from './support/harness.js';

const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const TOO_LONG = {
  kind: 'http_error' as const,
  status: 400,
  body: { error: { message: "This model's maximum context length is 8192 tokens.", type: 'invalid_request_error', code: 'context_length_exceeded' } },
};
const HISTORY: Message[] = [{ role: 'user', content: 'a long question' }];
const SHRUNK: Message[] = [{ role: 'user', content: 'short' }];
const tools = new ToolRegistry([calculatorTool]).schemas();

async function serve(script: ServerStep[], wrap: (provider: Provider) => Provider = (provider) => provider) {
  const server = await startChatServer(script);
  servers.push(server);
  return { server, provider: wrap(new OpenAIProvider({ apiKey: 'test-key', baseURL: server.url })) };
}

function options(provider: Provider, extra: Partial<ModelCallOptions> = {}): ModelCallOptions {
  return {
    provider,
    model: 'test-model',
    signal: new AbortController().signal,
    retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 10 },
    turn: 4,
    totals: new RunTotals('test-model', undefined),
    request: (messages) => ({ model: 'test-model', messages, tools, temperature: 0 }),
    ...extra,
  };
}

/** Runs callModel to its end; `onEvent` may act on an event (abort) before the next is read. */
async function drain(call: AsyncGenerator<AgentEvent, ModelCall>, onEvent?: (event: AgentEvent) => void) {
  const events: AgentEvent[] = [];
  for (;;) {
    const next = await call.next();
    if (next.done) return { events, outcome: next.value };
    events.push(next.value);
    onEvent?.(next.value);
  }
}

describe('callModel: one request of a turn', () => {
  it('passes the stream on with the turn, counts the usage once, and returns the reply', async () => {
    const { provider } = await serve([{ text: 'Hello.', usage: { inputTokens: 12, outputTokens: 3 } }]);
    const totals = new RunTotals('test-model', undefined);
    const { events, outcome } = await drain(callModel(HISTORY, options(provider, { totals })));
    expect(outcome).toMatchObject({ ok: true, messages: HISTORY, response: { message: { content: 'Hello.' }, finishReason: 'stop' } });
    expect(ofType(events, 'text_delta').every((event) => event.turn === 4)).toBe(true);
    expect(ofType(events, 'text_delta').map((event) => event.text).join('')).toBe('Hello.');
    expect(ofType(events, 'usage')).toEqual([{ type: 'usage', turn: 4, usage: expect.objectContaining({ inputTokens: 12, outputTokens: 3 }), total: totals.usage }]);
  });

  it('retries a server error, showing the retry as it is (no turn)', async () => {
    const { server, provider } = await serve([{ kind: 'http_error', status: 500, body: { error: { message: 'overloaded' } } }, { text: 'ok' }]);
    const { events, outcome } = await drain(callModel(HISTORY, options(provider)));
    expect(outcome.ok).toBe(true);
    expect(server.requests).toHaveLength(2);
    expect(ofType(events, 'retry')).toEqual([{ type: 'retry', attempt: 1, delayMs: expect.any(Number), error: expect.stringContaining('overloaded') }]);
  });

  it('hands a too-long prompt to onContextOverflow once, sends the shrunk history, and returns it', async () => {
    const { server, provider } = await serve([TOO_LONG, { text: 'fits now' }]);
    const seen: { messages: Message[]; turn: number; kind: string }[] = [];
    const warning: AgentEvent = { type: 'context_warning', turn: 4, message: 'compacting' };
    const onContextOverflow: ModelCallOptions['onContextOverflow'] = async (messages, { turn, error }) => {
      seen.push({ messages, turn, kind: error.kind });
      return { messages: SHRUNK, events: [warning] };
    };
    const { events, outcome } = await drain(callModel(HISTORY, options(provider, { onContextOverflow })));
    expect(seen).toEqual([{ messages: HISTORY, turn: 4, kind: 'context_length' }]);
    expect(server.requests[1]!.messages).toEqual([{ role: 'user', content: 'short' }]);
    expect(events).toContainEqual(warning);
    expect(outcome).toMatchObject({ ok: true, messages: SHRUNK, response: { message: { content: 'fits now' } } });
  });

  it('stops with the provider error when the prompt is still too long after the one shrink', async () => {
    const { server, provider } = await serve([TOO_LONG, TOO_LONG]);
    const onContextOverflow: ModelCallOptions['onContextOverflow'] = async () => ({ messages: SHRUNK });
    const { outcome } = await drain(callModel(HISTORY, options(provider, { onContextOverflow })));
    expect(outcome).toEqual({ ok: false, messages: SHRUNK, stop: { reason: 'provider_error', error: expect.stringContaining('maximum context length') } });
    expect(server.requests).toHaveLength(2);
  });

  it('stops as aborted when the signal fires mid-stream', async () => {
    const { provider } = await serve([{ kind: 'stall', reply: { text: 'partial and then nothing' }, afterChunks: 2 }]);
    const controller = new AbortController();
    const { events, outcome } = await drain(callModel(HISTORY, options(provider, { signal: controller.signal })), (event) => {
      if (event.type === 'text_delta') controller.abort();
    });
    expect(ofType(events, 'text_delta').length).toBeGreaterThan(0);
    expect(outcome).toEqual({ ok: false, messages: HISTORY, stop: { reason: 'aborted' } });
    // The cut-off request was sent and billed: it counts, estimated, so the stop and the session do not say 0.
    const [usage] = ofType(events, 'usage');
    expect(usage).toMatchObject({ turn: 4, usage: { estimated: true } });
    expect(usage!.usage.inputTokens).toBeGreaterThan(0);
    expect(usage!.usage.outputTokens).toBeGreaterThan(0);
  });

  it('passes a streamed call\'s name on as tool_call_delta with the turn, before the call is whole', async () => {
    const { provider } = await serve([{ toolCalls: [{ id: 'call_1', name: 'lookup', arguments: '{"q":"x"}' }] }]);
    const { events, outcome } = await drain(callModel(HISTORY, options(provider)));
    expect(ofType(events, 'tool_call_delta')[0]).toMatchObject({ turn: 4, id: 'call_1', name: 'lookup' });
    expect(outcome.ok).toBe(true);
  });

  it("passes a text protocol's unreadable replies on with the run's count, and its give-up as a repeated failure whose usage counts", async () => {
    const broken = { text: '{"tool": ', usage: { inputTokens: 20, outputTokens: 2 } };
    const { provider } = await serve([broken, broken], promptJsonProvider);
    const totals = new RunTotals('test-model', undefined);
    totals.addProtocolError();
    const request: ModelCallOptions['request'] = (messages) => ({ model: 'test-model', messages, tools, temperature: 0, protocolErrorLimit: 2 });
    const { events, outcome } = await drain(callModel(HISTORY, options(provider, { totals, request })));
    expect(ofType(events, 'protocol_error').map((event) => [event.turn, event.reason, event.count])).toEqual([[4, 'bad_json', 2], [4, 'bad_json', 3]]);
    expect(outcome).toEqual({ ok: false, messages: HISTORY, stop: { reason: 'repeated_call', error: expect.stringMatching(/^2 replies in a row could not be read as the protocol asks/) } });
    expect(totals.usage).toMatchObject({ inputTokens: 40, outputTokens: 4 });
    expect(totals.protocolErrors).toBe(3);
  });
});
