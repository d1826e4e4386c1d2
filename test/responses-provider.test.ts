/**
 * The Responses wire through the real openai SDK over HTTP, against a server that refuses what
 * OpenAI refuses with `store: false`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { run } from '../src/core/loop.js';
import type { AgentEvent } from '../src/contracts/events.js';
import type { AssistantMessage, Message } from '../src/contracts/messages.js';
import type { ProviderEvent } from '../src/contracts/provider.js';
import { ProviderError } from '../src/contracts/provider-error.js';
import { OpenAIProvider } from '../src/providers/openai/openai-provider.js';
import { ResponsesProvider } from '../src/providers/openai-responses/responses-provider.js';
import { isOpenAIReasoningModel } from '../src/providers/openai-responses/reasoning-models.js';
import { ConfigError, resolveProvider } from '../src/providers/create-provider.js';
import { costOf, priceOf } from '../src/providers/pricing.js';
import { defineTool } from '../src/tools/define-tool.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { startResponsesServer, type ResponsesServer, type ResponsesStep } from './support/responses-server.js';
import { ofType } from './support/harness.js';
import { writePng } from './support/image-fixtures.js';

const open: Array<ResponsesServer | ChatServer> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

async function responsesServer(script: ResponsesStep[]) {
  const server = await startResponsesServer(script);
  open.push(server);
  return server;
}

function counter() {
  const seen: string[] = [];
  const tool = defineTool({
    name: 'count',
    description: 'Counts the letters of a word.',
    parameters: z.object({ word: z.string() }),
    readOnly: true,
    execute: async ({ word }) => (seen.push(word), `${word} has ${word.length} letters`),
  });
  return { tools: new ToolRegistry([tool]), seen };
}

async function collect(stream: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const THREE_ROUNDS: ResponsesStep[] = [
  { reasoning: 'First the short word.', toolCalls: [{ name: 'count', arguments: { word: 'cat' } }], usage: { inputTokens: 500, cachedInputTokens: 0, outputTokens: 40, reasoningTokens: 25 } },
  { reasoning: 'Now the longer one, and a second at once.', toolCalls: [{ name: 'count', arguments: { word: 'giraffe' } }, { name: 'count', arguments: { word: 'ox' } }], usage: { inputTokens: 700, cachedInputTokens: 512, outputTokens: 60, reasoningTokens: 30 } },
  { reasoning: 'All counted.', text: 'cat 3, giraffe 7, ox 2.', usage: { inputTokens: 900, cachedInputTokens: 640, outputTokens: 20, reasoningTokens: 5 } },
];

describe('the Responses wire', () => {
  it('runs a multi-round tool task with each turn’s encrypted reasoning carried before its calls', async () => {
    const server = await responsesServer(THREE_ROUNDS);
    const { tools, seen } = counter();
    const events: AgentEvent[] = [];
    const provider = new ResponsesProvider({ apiKey: 'test-key', baseURL: server.url, promptCache: { key: 'session-1234', extendedRetention: true } });
    const result = await run({ provider, model: 'o4-mini', input: 'Count the letters.', tools, temperature: 0.3 }, (event) => events.push(event));

    expect(server.violations).toEqual([]);
    expect(result).toMatchObject({ stopReason: 'answered', answer: 'cat 3, giraffe 7, ox 2.', turns: 3 });
    expect(seen.sort()).toEqual(['cat', 'giraffe', 'ox']);
    for (const request of server.requests) {
      expect(request).toMatchObject({ model: 'o4-mini', store: false, stream: true, include: ['reasoning.encrypted_content'], reasoning: { summary: 'auto' }, prompt_cache_key: 'session-1234' });
      expect(request.temperature).toBeUndefined();
    }
    // The third request: both earlier turns' reasoning items, each before its own calls.
    const types = server.requests[2]!.input.map((item) => (item.type === 'message' ? `${item.role}` : item.type));
    expect(types).toEqual(['user', 'reasoning', 'function_call', 'function_call_output', 'reasoning', 'function_call', 'function_call', 'function_call_output', 'function_call_output']);
    expect(server.requests[2]!.input[1]).toMatchObject({ type: 'reasoning', id: 'rs_1', encrypted_content: expect.stringMatching(/^enc:/) });

    // Summaries shown as thinking and kept on the message; the items ride on providerData.
    expect(ofType(events, 'reasoning_delta').map((d) => d.text).join('')).toBe('First the short word.Now the longer one, and a second at once.All counted.');
    const first = result.messages[1] as AssistantMessage;
    expect(first.reasoning).toBe('First the short word.');
    expect(first.providerData).toMatchObject({ provider: 'openai', model: 'o4-mini', responsesReasoning: [{ type: 'reasoning', id: 'rs_1' }] });

    // Usage: all prompt tokens, the cached part, reasoning tokens; cost from the model's price.
    expect(result.usage).toMatchObject({ inputTokens: 2100, cachedInputTokens: 1152, outputTokens: 120, reasoningTokens: 60 });
    expect(result.cost).toBeCloseTo(costOf('o4-mini', result.usage)!, 12);
    const price = priceOf('o4-mini')!;
    expect(result.cost).toBeCloseTo(((2100 - 1152) * price.input + 1152 * price.cachedInput + 120 * price.output) / 1e6, 12);
    expect(result.cost).toBeGreaterThan(0);
  });

  it('on the next user turn, carries the reasoning of turns with calls only (an answer’s reasoning is not needed and would have no item after it)', async () => {
    const server = await responsesServer([...THREE_ROUNDS, { reasoning: 'Easy.', text: 'Yes.' }]);
    const { tools } = counter();
    const provider = new ResponsesProvider({ apiKey: 'k', baseURL: server.url });
    const first = await run({ provider, model: 'o4-mini', input: 'Count the letters.', tools });
    const events: AgentEvent[] = [];
    const second = await run({ provider, model: 'o4-mini', messages: first.messages, input: 'Sure?', tools }, (event) => events.push(event));
    expect(second.answer).toBe('Yes.');
    expect(server.violations).toEqual([]);
    const input = server.requests[3]!.input;
    expect(input.filter((item) => item.type === 'reasoning').map((item) => item.id)).toEqual(['rs_1', 'rs_2']);
    expect(input.slice(-2).map((item) => [item.role, item.content])).toEqual([['assistant', 'cat 3, giraffe 7, ox 2.'], ['user', 'Sure?']]);
    expect(ofType(events, 'context_warning')).toEqual([]);
  });

  it('sends a user’s image and a tool’s image as input_image data URLs, the tool’s after its results', async () => {
    const server = await responsesServer([{ toolCalls: [{ id: 'call_img', name: 'count', arguments: { word: 'pic' } }] }, { text: 'seen' }]);
    const dir = mkdtempSync(join(tmpdir(), 'vibe-resp-img-'));
    const png = await writePng(join(dir, 'a.png'), 2, 2);
    rmSync(dir, { recursive: true, force: true });
    const image = { mediaType: 'image/png' as const, data: png.toString('base64'), sha256: 'x' };
    const provider = new ResponsesProvider({ apiKey: 'k', baseURL: server.url });
    const history: Message[] = [{ role: 'user', content: 'look', images: [image] }];
    await collect(provider.stream({ model: 'gpt-4.1', messages: history, tools: [], temperature: 0 }));
    history.push({ role: 'assistant', content: '', toolCalls: [{ id: 'call_img', name: 'count', arguments: '{"word":"pic"}' }] });
    history.push({ role: 'tool', toolCallId: 'call_img', name: 'count', content: 'an image', isError: false, images: [image] });
    await collect(provider.stream({ model: 'gpt-4.1', messages: history, tools: [], temperature: 0 }));
    expect(server.violations).toEqual([]);
    const input = server.requests[1]!.input;
    expect(input[0]).toMatchObject({ role: 'user', content: [{ type: 'input_text', text: 'look' }, { type: 'input_image', image_url: expect.stringMatching(/^data:image\/png;base64,/) }] });
    expect(input.map((item) => item.type)).toEqual(['message', 'function_call', 'function_call_output', 'message']);
    expect(JSON.stringify(input[3])).toContain('The image returned by count (call call_img):');
  });

  it('sends temperature and asks for no reasoning for a model that does not reason', async () => {
    const server = await responsesServer([{ text: 'plain' }]);
    const result = await run({ provider: new ResponsesProvider({ apiKey: 'k', baseURL: server.url }), model: 'gpt-4.1', input: 'hi', temperature: 0.2 });
    expect(result.answer).toBe('plain');
    expect(server.requests[0]).toMatchObject({ temperature: 0.2, store: false });
    expect(server.requests[0]!.include).toBeUndefined();
    expect(server.requests[0]!.reasoning).toBeUndefined();
  });

  it('the server refuses a call sent without its reasoning item, as OpenAI does with store: false', async () => {
    const server = await responsesServer([{ reasoning: 'Think.', toolCalls: [{ id: 'call_a', name: 'count', arguments: { word: 'x' } }] }]);
    const provider = new ResponsesProvider({ apiKey: 'k', baseURL: server.url });
    const events = await collect(provider.stream({ model: 'o3', messages: [{ role: 'user', content: 'go' }], tools: [], temperature: 0 }));
    const reply = events.find((event) => event.type === 'response')!;
    // Reasoning made by another model is not sent (it could not be read): the server then refuses the call.
    const history: Message[] = [{ role: 'user', content: 'go' }, reply.response.message, { role: 'tool', toolCallId: 'call_a', name: 'count', content: 'x has 1 letters', isError: false }];
    const error = await collect(provider.stream({ model: 'o4-mini', messages: history, tools: [], temperature: 0 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'bad_request', status: 400 });
    expect((error as Error).message).toContain("was provided without its required 'reasoning' item: 'rs_1'");
  });

  it('the server refuses a function_call_output that answers no call, and an unknown field', async () => {
    const server = await responsesServer([]);
    const provider = new ResponsesProvider({ apiKey: 'k', baseURL: server.url });
    const orphan: Message[] = [{ role: 'user', content: 'go' }, { role: 'tool', toolCallId: 'call_nowhere', name: 'count', content: 'x', isError: false }];
    const error = await collect(provider.stream({ model: 'gpt-4.1', messages: orphan, tools: [], temperature: 0 })).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'bad_request' });
    expect((error as Error).message).toContain('No tool call found for function call output with call_id call_nowhere.');

    const response = await fetch(`${server.url}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-4.1', input: [], stream: true, messages: [] }) });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { message: "Unknown parameter: 'messages'.", type: 'invalid_request_error', param: 'messages', code: 'unknown_parameter' } });
  });

  it('retries an error event mid-stream by its code and a cut stream, and never runs a half-received call', async () => {
    const call = { name: 'count', arguments: { word: 'hippopotamus' } };
    const server = await responsesServer([
      { kind: 'stream_error', reply: { toolCalls: [call] }, afterEvents: 4, code: 'rate_limit_exceeded', message: 'Rate limit reached.' },
      { kind: 'cut', reply: { reasoning: 'Again.', toolCalls: [call] }, afterEvents: 9 },
      { reasoning: 'Again.', toolCalls: [call] },
      { text: 'twelve' },
    ]);
    const { tools, seen } = counter();
    const events: AgentEvent[] = [];
    const result = await run(
      { provider: new ResponsesProvider({ apiKey: 'k', baseURL: server.url }), model: 'o4-mini', input: 'count', tools, retry: { maxRetries: 3, baseDelayMs: 5, maxDelayMs: 50 } },
      (event) => events.push(event),
    );
    expect(ofType(events, 'retry').map((retry) => retry.error)).toEqual([
      expect.stringContaining('Rate limit reached. (rate_limit_exceeded)'),
      expect.stringMatching(/^openai: the stream broke off \(/),
    ]);
    expect(seen).toEqual(['hippopotamus']);
    expect(result.answer).toBe('twelve');
    expect(server.violations).toEqual([]);
  });

  it('classifies a server_error event as retryable and an invalid_prompt one as not', async () => {
    const server = await responsesServer([
      { kind: 'stream_error', reply: { text: 'x' }, afterEvents: 2, code: 'server_error', message: 'Something broke.' },
      { kind: 'stream_error', reply: { text: 'x' }, afterEvents: 2, code: 'invalid_prompt', message: 'Bad prompt.' },
    ]);
    const events: AgentEvent[] = [];
    const result = await run({ provider: new ResponsesProvider({ apiKey: 'k', baseURL: server.url }), model: 'gpt-4.1', input: 'x', retry: { maxRetries: 3, baseDelayMs: 5, maxDelayMs: 50 } }, (event) => events.push(event));
    expect(ofType(events, 'retry')).toHaveLength(1);
    expect(result.stopReason).toBe('provider_error');
    expect(result.error).toContain('Bad prompt. (invalid_prompt)');
  });
});

describe('a history moves between the wires', () => {
  it('a Responses session goes on over Chat Completions: calls and results kept, reasoning items left behind', async () => {
    const responses = await responsesServer(THREE_ROUNDS);
    const { tools } = counter();
    const first = await run({ provider: new ResponsesProvider({ apiKey: 'k', baseURL: responses.url }), model: 'o4-mini', input: 'Count the letters.', tools });
    const chat = await startChatServer([{ toolCalls: [{ name: 'count', arguments: { word: 'emu' } }] }, { text: 'emu 3' }]);
    open.push(chat);
    const second = await run({ provider: new OpenAIProvider({ apiKey: 'k', baseURL: chat.url }), model: 'o4-mini', messages: first.messages, input: 'And emu?', tools });
    expect(chat.violations).toEqual([]);
    expect(second.answer).toBe('emu 3');
    const sent = chat.requests[0]!.messages;
    expect(sent.filter((m) => m.role === 'tool')).toHaveLength(3);
    expect(JSON.stringify(sent)).not.toMatch(/encrypted|reasoning/);
  });

  it('a Chat Completions session goes on over Responses: its reasoning dropped and counted, the rest converted', async () => {
    const chat = await startChatServer([{ reasoning: 'Chat thoughts.', toolCalls: [{ name: 'count', arguments: { word: 'yak' } }] }, { text: 'yak 3' }]);
    open.push(chat);
    const { tools } = counter();
    const first = await run({ provider: new OpenAIProvider({ apiKey: 'k', baseURL: chat.url, replayReasoning: true }), model: 'o4-mini', input: 'Count yak.', tools });
    const responses = await responsesServer([{ reasoning: 'Now the gnu.', toolCalls: [{ name: 'count', arguments: { word: 'gnu' } }] }, { text: 'gnu 3' }]);
    const provider = new ResponsesProvider({ apiKey: 'k', baseURL: responses.url });
    const events: AgentEvent[] = [];
    const second = await run({ provider, model: 'o4-mini', messages: first.messages, input: 'And gnu?', tools }, (event) => events.push(event));
    expect(responses.violations).toEqual([]);
    expect(second.answer).toBe('gnu 3');
    expect(JSON.stringify(responses.requests[0]!.input)).not.toContain('Chat thoughts.');
    expect(responses.requests[0]!.input.map((item) => item.type)).toEqual(['message', 'function_call', 'function_call_output', 'message', 'message']);
    // Left out of both requests, noted once.
    expect(ofType(events, 'context_warning').map((warning) => warning.leftOut)).toEqual([
      [{ part: 'reasoning', from: { provider: 'openai', model: 'o4-mini', wire: 'chat' }, to: { provider: 'openai', model: 'o4-mini', wire: 'responses' }, turns: 1 }],
    ]);
  });
});

describe('which wire a provider speaks', () => {
  const env = { OPENAI_API_KEY: 'k', DEEPSEEK_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' };
  it("takes Responses for OpenAI's reasoning models at OpenAI's endpoint, Chat otherwise, and --wire over both", () => {
    expect(resolveProvider({ provider: 'openai', model: 'gpt-5-mini', env }).wire).toBe('responses');
    expect(resolveProvider({ provider: 'openai', model: 'o4-mini', env }).wire).toBe('responses');
    expect(resolveProvider({ provider: 'openai', model: 'gpt-4.1', env }).wire).toBe('chat');
    expect(resolveProvider({ provider: 'openai', model: 'o4-mini', baseUrl: 'http://127.0.0.1:8000/v1', env }).wire).toBe('chat');
    expect(resolveProvider({ provider: 'openai', model: 'gpt-5', wire: 'chat', env }).wire).toBe('chat');
    expect(resolveProvider({ provider: 'deepseek', env }).wire).toBe('chat');
    expect(resolveProvider({ provider: 'vllm', model: 'qwen', wire: 'responses', env }).wire).toBe('responses');
    expect(resolveProvider({ provider: 'anthropic', env }).wire).toBeUndefined();
    expect(() => resolveProvider({ provider: 'anthropic', wire: 'responses', env })).toThrow(ConfigError);
  });

  it('knows the reasoning models by name', () => {
    for (const model of ['o1', 'o3', 'o3-mini', 'o4-mini-2025-04-16', 'gpt-5', 'gpt-5.1', 'gpt-5-codex', 'openai/gpt-5-mini']) expect(isOpenAIReasoningModel(model), model).toBe(true);
    for (const model of ['gpt-4o', 'gpt-4.1-mini', 'gpt-50', 'omni', 'o', 'qwen3']) expect(isOpenAIReasoningModel(model), model).toBe(false);
  });
});
