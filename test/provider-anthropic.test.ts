/** Anthropic-specific behaviour, through the real SDK against the strict Messages API server. */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { run, type AgentOptions } from '../src/core/loop.js';
import type { AgentEvent } from '../src/contracts/events.js';
import type { AssistantMessage, Message } from '../src/contracts/messages.js';
import { AnthropicProvider, type AnthropicProviderOptions } from '../src/providers/anthropic/anthropic-provider.js';
import { ProviderError } from '../src/contracts/provider-error.js';
import { defineTool } from '../src/tools/define-tool.js';
import { ToolRegistry } from '../src/tools/registry.js';
import type { SseEvent } from './support/anthropic-frames.js';
import type { WireBlock } from './support/anthropic-protocol-check.js';
import { apiError, startAnthropicServer, type AnthropicServer, type AnthropicStep } from './support/anthropic-server.js';
import { ofType } from './support/harness.js';

const servers: AnthropicServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const echo = defineTool({ name: 'echo', description: 'Echoes.', parameters: z.object({ v: z.string() }), readOnly: true, execute: async ({ v }) => `echo ${v}` });
const fails = defineTool({ name: 'fails', description: 'Always fails.', parameters: z.object({}), readOnly: true, execute: async () => { throw new Error('disk on fire'); } });

async function scenario(script: AnthropicStep[], options: Omit<Partial<AgentOptions>, 'provider'> & { anthropic?: Partial<AnthropicProviderOptions> } = {}) {
  const server = await startAnthropicServer(script);
  servers.push(server);
  const { anthropic: providerOptions, ...rest } = options;
  const events: AgentEvent[] = [];
  const result = await run(
    {
      provider: new AnthropicProvider({ apiKey: 'sk-ant-test', baseURL: server.url, ...providerOptions }),
      model: 'claude-test',
      input: 'task',
      tools: new ToolRegistry([echo, fails]),
      retry: { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 1000 },
      ...rest,
    },
    (event) => events.push(event),
  );
  return { server, result, events };
}

/** The first error a provider throws for one request against this script. */
async function providerError(script: AnthropicStep[]): Promise<ProviderError> {
  const server = await startAnthropicServer(script);
  servers.push(server);
  const provider = new AnthropicProvider({ apiKey: 'sk-ant-test', baseURL: server.url });
  try {
    for await (const _event of provider.stream({ model: 'claude-test', messages: [{ role: 'user', content: 'hi' }], tools: [], temperature: 0 })) {
      // drain
    }
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error('expected a ProviderError');
}

const blocks = (content: unknown) => content as WireBlock[];

describe('Anthropic request shape', () => {
  it('sends system as `system`, the default max_tokens, input_schema tools, the key, no temperature', async () => {
    const { server } = await scenario([{ text: 'hi' }], { system: 'You are terse.' });
    const body = server.requests[0]!;
    expect(body.system).toBe('You are terse.');
    expect(body.max_tokens).toBe(8192);
    expect(body.stream).toBe(true);
    expect(body).not.toHaveProperty('temperature');
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'task' }] }]);
    expect(body.tools!.map((tool) => tool.name)).toEqual(['echo', 'fails']);
    expect(body.tools![0]!.input_schema).toMatchObject({ type: 'object', properties: { v: { type: 'string' } } });
    expect(body.tools![0]!.input_schema).not.toHaveProperty('$schema');
    // SDK 1.16 sends the key as a bearer token; older ones as x-api-key.
    const sent = server.headers[0]!;
    expect(sent['x-api-key'] ?? sent.authorization?.replace(/^Bearer /, '')).toBe('sk-ant-test');
    expect(server.violations).toEqual([]);
  });

  it('puts all results of one turn in one user message, results first, failures with is_error', async () => {
    const { server } = await scenario([
      { toolCalls: [{ id: 'toolu_a', name: 'echo', arguments: { v: 'x' } }, { id: 'toolu_b', name: 'fails', arguments: {} }] },
      { text: 'done' },
    ]);
    const second = server.requests[1]!.messages;
    expect(second.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(blocks(second[1]!.content)).toEqual([
      { type: 'tool_use', id: 'toolu_a', name: 'echo', input: { v: 'x' } },
      { type: 'tool_use', id: 'toolu_b', name: 'fails', input: {} },
    ]);
    const results = blocks(second[2]!.content);
    expect(results.map((b) => [b.type, b.tool_use_id, b.is_error])).toEqual([['tool_result', 'toolu_a', undefined], ['tool_result', 'toolu_b', true]]);
    expect(results[1]!.content).toMatch(/disk on fire/);
    expect(server.violations).toEqual([]);
  });

  it('merges consecutive user messages, skips empty text, and never sends an empty tool result', async () => {
    const history: Message[] = [
      { role: 'user', content: 'first' },
      { role: 'assistant', content: '  ', toolCalls: [{ id: 'toolu_e', name: 'echo', arguments: '{"v":"y"}' }] },
      { role: 'tool', toolCallId: 'toolu_e', name: 'echo', content: '', isError: false },
      { role: 'user', content: '' },
    ];
    const { server } = await scenario([{ text: 'ok' }], { messages: history });
    const messages = server.requests[0]!.messages;
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(blocks(messages[1]!.content)).toEqual([{ type: 'tool_use', id: 'toolu_e', name: 'echo', input: { v: 'y' } }]);
    expect(blocks(messages[2]!.content)).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_e', content: '(no output)' },
      { type: 'text', text: 'task' },
    ]);
    expect(server.violations).toEqual([]);
  });

  it('works without streaming (one JSON message per request)', async () => {
    const { server, result } = await scenario([{ reasoning: 'think', toolCalls: [{ name: 'echo', arguments: { v: 'z' } }] }, { text: 'fine' }], {
      anthropic: { stream: false, thinkingBudget: 1024 },
    });
    expect(server.requests.map((r) => r.stream ?? false)).toEqual([false, false]);
    expect(server.requests[0]!.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(server.requests[0]!.max_tokens).toBe(8192);
    expect(result.answer).toBe('fine');
    expect(server.violations).toEqual([]);
  });
});

describe('Anthropic thinking', () => {
  const signed = (model: string, provider = 'anthropic'): AssistantMessage => ({
    role: 'assistant',
    content: 'Earlier answer.',
    toolCalls: [],
    reasoning: 'old thoughts',
    providerData: { provider, model, thinking: [{ type: 'thinking', thinking: 'old thoughts', signature: 'sig_from_elsewhere' }] },
  });

  it('drops signed thinking from another model or another provider', async () => {
    const history: Message[] = [{ role: 'user', content: 'a' }, signed('claude-other'), { role: 'user', content: 'b' }, signed('claude-test', 'proxy')];
    const { server } = await scenario([{ text: 'ok' }], { messages: history, anthropic: { thinkingBudget: 2048 } });
    const sent = server.requests[0]!.messages.flatMap((m) => blocks(m.content));
    expect(sent.filter((b) => b.type === 'thinking')).toEqual([]);
    expect(server.violations).toEqual([]);
  });

  it('replays redacted thinking unchanged before the tool_use it came with', async () => {
    const { server, result } = await scenario([{ kind: 'redacted', data: 'opaque-blob==', reply: { toolCalls: [{ name: 'echo', arguments: { v: 'r' } }] } }, { text: 'ok' }], {
      anthropic: { thinkingBudget: 2048 },
    });
    const assistant = server.requests[1]!.messages[1]!;
    expect(blocks(assistant.content)[0]).toEqual({ type: 'redacted_thinking', data: 'opaque-blob==' });
    expect((result.messages[1] as AssistantMessage).providerData).toMatchObject({ provider: 'anthropic', model: 'claude-test' });
    expect(server.violations).toEqual([]);
  });

  it('the strict server rejects a missing replay (the check the conformance suite relies on)', async () => {
    const history: Message[] = [{ role: 'user', content: 'a' }, { role: 'assistant', content: '', toolCalls: [{ id: 'toolu_q', name: 'echo', arguments: '{"v":"q"}' }] }];
    const server = await startAnthropicServer([{ reasoning: 'must come back', toolCalls: [{ id: 'toolu_q', name: 'echo', arguments: { v: 'q' } }] }]);
    servers.push(server);
    const provider = new AnthropicProvider({ apiKey: 'k', baseURL: server.url, thinkingBudget: 2048 });
    for await (const _event of provider.stream({ model: 'claude-test', messages: [{ role: 'user', content: 'a' }], tools: [], temperature: 0 })) {
      // first reply: thinking + call
    }
    const stripped: Message[] = [...history, { role: 'tool', toolCallId: 'toolu_q', name: 'echo', content: 'echo q', isError: false }];
    await expect(async () => {
      for await (const _event of provider.stream({ model: 'claude-test', messages: stripped, tools: [], temperature: 0 })) {
        // rejected
      }
    }).rejects.toMatchObject({ kind: 'bad_request' });
    expect(server.violations).toEqual([expect.stringMatching(/must start with the thinking blocks/)]);
  });
});

describe('Anthropic stop reasons and usage', () => {
  const event = (data: { type: string; [key: string]: unknown }): SseEvent => ({ event: data.type, data });
  const paused = (text: string, stop: string): SseEvent[] => [
    event({ type: 'message_start', message: { id: 'm', type: 'message', role: 'assistant', model: 'claude-test', content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } }),
    event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }),
    event({ type: 'content_block_stop', index: 0 }),
    event({ type: 'message_delta', delta: { stop_reason: stop }, usage: { output_tokens: 5 } }),
    event({ type: 'message_stop' }),
  ];

  it('continues a pause_turn by sending the paused content back, and reports one reply', async () => {
    const { server, result, events } = await scenario([{ kind: 'raw_events', events: paused('Searching. ', 'pause_turn') }, { kind: 'raw_events', events: paused('Found it.', 'end_turn') }]);
    expect(server.requests).toHaveLength(2);
    const last = server.requests[1]!.messages.at(-1)!;
    expect(last).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Searching. ' }] });
    expect(result).toMatchObject({ answer: 'Searching. Found it.', turns: 1, stopReason: 'answered' });
    expect(ofType(events, 'assistant_message')).toHaveLength(1);
    expect(ofType(events, 'usage')[0]!.usage).toMatchObject({ inputTokens: 20, outputTokens: 10 });
    expect(server.violations).toEqual([]);
  });

  it('treats a stream that ends without message_stop as cut, and retries', async () => {
    const { result, events } = await scenario([{ kind: 'raw_events', events: paused('half', 'end_turn').slice(0, 4) }, { text: 'whole' }]);
    expect(ofType(events, 'retry')[0]!.error).toMatch(/message_stop/);
    expect(result.answer).toBe('whole');
  });

  it('counts thinking tokens as reasoning tokens', async () => {
    const { events } = await scenario([{ text: 'ok', usage: { inputTokens: 50, outputTokens: 40, reasoningTokens: 25 } }]);
    expect(ofType(events, 'usage')[0]!.usage).toEqual({ inputTokens: 50, outputTokens: 40, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 25 });
  });
});

describe('Anthropic errors', () => {
  it('retries 529 overloaded and an overloaded_error event mid-stream', async () => {
    const { result, events } = await scenario([
      { kind: 'http_error', status: 529 },
      { kind: 'stream_error', reply: { text: 'partial answer' }, afterEvents: 4, error: { type: 'overloaded_error', message: 'Overloaded' } },
      { text: 'third time' },
    ]);
    expect(ofType(events, 'retry').map((r) => r.error)).toEqual([
      expect.stringMatching(/HTTP 529: overloaded_error/),
      expect.stringMatching(/mid-stream: overloaded_error: Overloaded/),
    ]);
    expect(result.answer).toBe('third time');
  });

  it.each([
    [401, 'authentication_error', 'invalid x-api-key', 'auth'],
    [403, 'permission_error', 'not allowed', 'auth'],
    [400, 'invalid_request_error', 'prompt is too long: 210000 tokens > 200000 maximum', 'context_length'],
    [413, 'request_too_large', 'Request exceeds the maximum allowed number of bytes.', 'context_length'],
    [400, 'invalid_request_error', 'Your credit balance is too low to access the Anthropic API.', 'quota'],
    [400, 'invalid_request_error', 'messages.0: bad', 'bad_request'],
    [500, 'api_error', 'Internal server error', 'server'],
  ])('maps HTTP %i %s (%s) to kind %s', async (status, type, message, kind) => {
    const error = await providerError([{ kind: 'http_error', status, body: apiError(type, message) }]);
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(error.message).toContain(message);
  });

  it('reads retry-after from a 429', async () => {
    const error = await providerError([{ kind: 'http_error', status: 429, headers: { 'retry-after': '7' }, body: apiError('rate_limit_error', 'slow down') }]);
    expect(error).toMatchObject({ kind: 'rate_limit', retryAfterMs: 7000, retryable: true });
  });

  it('reports an unreachable local server as a network error that is not retried, saying what to start', async () => {
    const server = await startAnthropicServer([]);
    const url = server.url;
    await server.close();
    const provider = new AnthropicProvider({ apiKey: 'k', baseURL: url });
    await expect(async () => {
      for await (const _event of provider.stream({ model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: [], temperature: 0 })) {
        // nothing arrives
      }
    }).rejects.toMatchObject({ kind: 'network', retryable: false, message: expect.stringContaining('Nothing is listening on 127.0.0.1:') });
  });
});
