/**
 * What real providers send, as bytes, through the real SDKs to the local wire servers: errors
 * classed by their code wherever they appear (HTTP body, error event, error frame inside a 200
 * stream), content in every shape the vendors document, and a spliced stream refused. Each byte
 * string is written in the shape the vendor's own documentation gives for it.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelRequest, ProviderEvent } from '../src/contracts/provider.js';
import { ProviderError } from '../src/contracts/provider-error.js';
import { OpenAIProvider } from '../src/providers/openai/openai-provider.js';
import { ResponsesProvider } from '../src/providers/openai-responses/responses-provider.js';
import { AnthropicProvider } from '../src/providers/anthropic/anthropic-provider.js';
import { kindOfCodes } from '../src/providers/shared/error-code.js';
import { startChatServer } from './support/chat-server.js';
import { startResponsesServer } from './support/responses-server.js';
import { startAnthropicServer } from './support/anthropic-server.js';
import type { RawFault } from './support/http-replies.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const request: ModelRequest = { model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: [], temperature: 0 };

async function drain(stream: AsyncGenerator<ProviderEvent>): Promise<{ events: ProviderEvent[]; error?: ProviderError }> {
  const events: ProviderEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
    return { events };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return { events, error };
  }
}

async function chat(step: RawFault) {
  const server = await startChatServer([step], { checkEcho: false });
  closers.push(() => server.close());
  return drain(new OpenAIProvider({ apiKey: 'sk-test', baseURL: server.url }).stream(request));
}

async function responses(step: RawFault) {
  const server = await startResponsesServer([step]);
  closers.push(() => server.close());
  return drain(new ResponsesProvider({ apiKey: 'sk-test', baseURL: server.url }).stream({ ...request, model: 'gpt-4.1' }));
}

async function anthropic(step: RawFault) {
  const server = await startAnthropicServer([step]);
  closers.push(() => server.close());
  return drain(new AnthropicProvider({ apiKey: 'sk-ant-test', baseURL: server.url }).stream({ ...request, model: 'claude-sonnet-4-5' }));
}

const sse = (data: unknown, event?: string) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
const chunk = (delta: unknown, finish: string | null = null) => ({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] });

describe('errors classed by their code wherever they appear', () => {
  it('Responses: an insufficient_quota error event is a quota error, not retried as a server error', async () => {
    const bytes =
      sse({ type: 'response.created', sequence_number: 0, response: { id: 'resp_1', object: 'response', status: 'in_progress', output: [] } }, 'response.created') +
      sse({ type: 'error', sequence_number: 1, error: { type: 'insufficient_quota', code: 'insufficient_quota', message: 'You exceeded your current quota, please check your plan and billing details.', param: null } }, 'error');
    const { error } = await responses({ kind: 'raw_bytes', bytes });
    expect(error?.kind).toBe('quota');
    expect(error?.retryable).toBe(false);
    expect(error?.message).toContain('exceeded your current quota');
  });

  it("Chat Completions: OpenRouter's error frame inside a 200 stream is classed by its code", async () => {
    const bytes =
      ': OPENROUTER PROCESSING\n\n' +
      sse(chunk({ role: 'assistant', content: 'Hel' })) +
      sse({ id: 'gen-1', object: 'chat.completion.chunk', created: 1, model: 'm', provider: 'X', error: { code: 402, message: 'Insufficient credits. Add more using https://openrouter.ai/settings/credits' }, choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }] });
    const { error } = await chat({ kind: 'raw_bytes', bytes });
    expect(error).toMatchObject({ kind: 'quota', status: 402 });
    expect(error?.retryable).toBe(false);
  });

  it("Chat Completions: Groq's tool_use_failed frame is a bad request, not retried", async () => {
    const bytes =
      sse(chunk({ role: 'assistant', content: '' })) +
      sse({ error: { message: "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.", type: 'invalid_request_error', code: 'tool_use_failed', failed_generation: '<function=echo>{"v": 1}</function>' } });
    const { error } = await chat({ kind: 'raw_bytes', bytes });
    expect(error?.kind).toBe('bad_request');
    expect(error?.retryable).toBe(false);
    expect(error?.message).toContain('tool_use_failed');
  });

  it('Anthropic: an invalid_request_error event inside a stream is not retried; overloaded_error is', async () => {
    const start = sse({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], model: 'claude-sonnet-4-5', stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } }, 'message_start');
    const refused = await anthropic({ kind: 'raw_bytes', bytes: start + sse({ type: 'error', error: { type: 'invalid_request_error', message: 'prompt is malformed' } }, 'error') });
    expect(refused.error?.kind).toBe('bad_request');
    const busy = await anthropic({ kind: 'raw_bytes', bytes: start + sse({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'error') });
    expect(busy.error?.kind).toBe('server');
    expect(busy.error?.retryable).toBe(true);
  });

  it('property: a code names the same kind whether it came as a string or inside any set of codes', () => {
    const known = fc.constantFrom(
      ['insufficient_quota', 'quota'],
      ['rate_limit_exceeded', 'rate_limit'],
      ['context_length_exceeded', 'context_length'],
      ['invalid_api_key', 'auth'],
      ['server_error', 'server'],
      ['overloaded_error', 'server'],
      ['tool_use_failed', 'bad_request'],
      ['invalid_request_error', 'bad_request'],
    );
    fc.assert(
      fc.property(known, fc.array(fc.oneof(fc.constant(undefined), fc.constant(null), fc.constant('')), { maxLength: 3 }), ([code, kind], blanks) => {
        expect(kindOfCodes(...blanks, code)?.kind).toBe(kind);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 400, max: 599 }), (status) => {
        const found = kindOfCodes(status);
        expect(found?.status).toBe(status);
        expect(found?.kind).toBe(status === 429 ? 'rate_limit' : status === 402 ? 'quota' : status === 401 || status === 403 ? 'auth' : status === 413 ? 'context_length' : status >= 500 || status === 408 || status === 409 ? 'server' : 'bad_request');
      }),
    );
  });
});

describe('content in every shape the vendors document', () => {
  it("Mistral Magistral: typed content parts give the answer as text and the thinking as reasoning (streamed)", async () => {
    const bytes =
      sse(chunk({ role: 'assistant', content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'The user greets. ' }] }] })) +
      sse(chunk({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'Answer kindly.' }] }] })) +
      sse(chunk({ content: [{ type: 'text', text: 'Hello' }] })) +
      sse(chunk({ content: ' there!' })) +
      sse(chunk({}, 'stop')) +
      'data: [DONE]\n\n';
    const { events, error } = await chat({ kind: 'raw_bytes', bytes });
    expect(error).toBeUndefined();
    const response = events.find((event) => event.type === 'response');
    expect(response).toMatchObject({ response: { message: { content: 'Hello there!', reasoning: 'The user greets. Answer kindly.' } } });
  });

  it('property: any split of text and thinking parts keeps every character of both', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.record({ thinking: fc.boolean(), text: fc.string({ minLength: 1, maxLength: 20 }) }), { minLength: 1, maxLength: 8 }), async (parts) => {
        const bytes = parts.map((part) => sse(chunk({ content: [part.thinking ? { type: 'thinking', thinking: [{ type: 'text', text: part.text }] } : { type: 'text', text: part.text }] }))).join('') + sse(chunk({}, 'stop')) + 'data: [DONE]\n\n';
        const { events } = await chat({ kind: 'raw_bytes', bytes });
        const response = events.find((event) => event.type === 'response');
        const message = response?.type === 'response' ? response.response.message : undefined;
        expect(message?.content).toBe(parts.filter((part) => !part.thinking).map((part) => part.text).join(''));
        expect(message?.reasoning ?? '').toBe(parts.filter((part) => part.thinking).map((part) => part.text).join(''));
      }),
      { numRuns: 15 },
    );
  });
});

describe('a spliced Anthropic stream', () => {
  it('a second message_start inside one reply is refused, not merged', async () => {
    const start = (id: string) => sse({ type: 'message_start', message: { id, type: 'message', role: 'assistant', content: [], model: 'claude-sonnet-4-5', stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } }, 'message_start');
    const text = (value: string) =>
      sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start') +
      sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: value } }, 'content_block_delta') +
      sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop');
    const end = sse({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } }, 'message_delta') + sse({ type: 'message_stop' }, 'message_stop');
    const { events, error } = await anthropic({ kind: 'raw_bytes', bytes: start('msg_1') + text('mine') + start('msg_2') + text('injected') + end });
    expect(error?.message).toContain('second message_start');
    expect(events.some((event) => event.type === 'response')).toBe(false);
  });
});
