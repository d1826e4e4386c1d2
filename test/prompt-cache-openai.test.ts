/** Prompt caching on the Chat Completions wire (OpenAI, DeepSeek, the other dialects' fields) and Gemini's implicit cache. */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { run } from '../src/core/loop.js';
import type { AgentEvent } from '../src/contracts/events.js';
import { addUsage, emptyUsage } from '../src/contracts/messages.js';
import type { Provider } from '../src/contracts/provider.js';
import { createProvider, resolveProvider } from '../src/providers/create-provider.js';
import { GoogleProvider } from '../src/providers/google/google-provider.js';
import { OpenAIProvider } from '../src/providers/openai/openai-provider.js';
import { readUsage } from '../src/providers/openai/read-usage.js';
import { defineTool } from '../src/tools/define-tool.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { startChatServer, type ChatServer, type ChatServerOptions, type ServerStep } from './support/chat-server.js';
import { startGeminiServer, type GeminiServer, type GeminiStep } from './support/gemini-server.js';
import { ofType } from './support/harness.js';

const closers: Array<ChatServer | GeminiServer> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((server) => server.close()));
});

const echo = defineTool({ name: 'echo', description: 'Echoes.', parameters: z.object({ v: z.string() }), readOnly: true, execute: async ({ v }) => `echo ${v} ${'output '.repeat(20)}` });
const LONG_SYSTEM = `You are a careful coding agent. ${'Follow the project rules and keep answers short. '.repeat(120)}`;
const call = (v: string) => ({ toolCalls: [{ name: 'echo', arguments: { v } }] });
const rounds = (n: number) => [...Array.from({ length: n }, (_, i) => call(`r${i}`)), { text: 'done' }];

async function chatSession(script: ServerStep[], makeProvider: (url: string) => Provider | Promise<Provider>, model: string, options: ChatServerOptions = {}) {
  const server = await startChatServer(script, options);
  closers.push(server);
  const events: AgentEvent[] = [];
  const result = await run(
    { provider: await makeProvider(server.url), model, system: LONG_SYSTEM, input: 'task', tools: new ToolRegistry([echo]), retry: { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 50 } },
    (event) => events.push(event),
  );
  expect(server.violations).toEqual([]);
  const total = ofType(events, 'usage').reduce((sum, event) => addUsage(sum, event.usage), emptyUsage());
  return { server, result, events, total };
}

describe('OpenAI prompt caching', () => {
  it('sends one prompt_cache_key for the whole conversation and 24h retention to a model that takes it; reads >= 80% of a growing session', async () => {
    const openai = (url: string) => createProvider(resolveProvider({ provider: 'openai', apiKey: 'sk-test', baseUrl: url, model: 'gpt-5' }));
    const { server, total, events } = await chatSession(rounds(12), openai, 'gpt-5');
    const keys = new Set(server.requests.map((body) => body.prompt_cache_key));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^vibe-[0-9a-f]{32}$/);
    expect(server.requests.every((body) => body.prompt_cache_retention === '24h')).toBe(true);
    expect(total.cachedInputTokens / total.inputTokens).toBeGreaterThanOrEqual(0.8);
    // OpenAI caches in steps of 128 tokens past the first 1,024.
    for (const { usage } of ofType(events, 'usage').slice(1)) expect((usage.cachedInputTokens - 1024) % 128).toBe(0);
    expect(total.cacheWriteTokens).toBe(0);
  });

  it('leaves retention off for a model without it, and both fields off with --cache-ttl off', async () => {
    const gpt4o = await chatSession([{ text: 'ok' }], (url) => createProvider(resolveProvider({ provider: 'openai', apiKey: 'sk-test', baseUrl: url, model: 'gpt-4o' })), 'gpt-4o');
    expect(gpt4o.server.requests[0]!.prompt_cache_key).toMatch(/^vibe-/);
    expect(gpt4o.server.requests[0]!.prompt_cache_retention).toBeUndefined();
    const off = await chatSession([{ text: 'ok' }], (url) => createProvider(resolveProvider({ provider: 'openai', apiKey: 'sk-test', baseUrl: url, model: 'gpt-5', cacheTtl: 'off' })), 'gpt-5');
    expect(off.server.requests[0]!.prompt_cache_key).toBeUndefined();
    expect(off.server.requests[0]!.prompt_cache_retention).toBeUndefined();
  });

  it('gives a different conversation a different key, and a library user may fix one', async () => {
    const first = await chatSession([{ text: 'ok' }], (url) => new OpenAIProvider({ apiKey: 'k', baseURL: url, promptCache: { key: true } }), 'gpt-5');
    const fixed = await chatSession([{ text: 'ok' }], (url) => new OpenAIProvider({ apiKey: 'k', baseURL: url, promptCache: { key: 'my-app-user-7' } }), 'gpt-5');
    expect(fixed.server.requests[0]!.prompt_cache_key).toBe('my-app-user-7');
    const other = await startChatServer([{ text: 'ok' }]);
    closers.push(other);
    await run({ provider: new OpenAIProvider({ apiKey: 'k', baseURL: other.url, promptCache: { key: true } }), model: 'gpt-5', system: LONG_SYSTEM, input: 'another task', tools: new ToolRegistry([]) });
    expect(other.requests[0]!.prompt_cache_key).not.toBe(first.server.requests[0]!.prompt_cache_key);
  });

  it('an endpoint that refuses prompt_cache_key gets the request again without it, and never again', async () => {
    const refusing = (then: ServerStep): ServerStep => (body) =>
      body.prompt_cache_key ? { kind: 'http_error', status: 400, body: { error: { message: 'Unrecognized request argument supplied: prompt_cache_key', type: 'invalid_request_error' } } } : (then as Exclude<ServerStep, Function>);
    const { server, result } = await chatSession([refusing(call('a')), refusing(call('a')), refusing({ text: 'done' })], (url) => new OpenAIProvider({ apiKey: 'k', baseURL: url, promptCache: { key: true } }), 'gpt-4o');
    expect(result.answer).toBe('done');
    expect(server.requests.map((body) => body.prompt_cache_key === undefined)).toEqual([false, true, true]);
  });

  it('compatible presets (DeepSeek) get neither field; DeepSeek reports its hits in 64-token units, read from prompt_cache_hit_tokens', async () => {
    const deepseek = (url: string) => createProvider(resolveProvider({ provider: 'deepseek', apiKey: 'sk-test', baseUrl: url }));
    const { server, events, total } = await chatSession(rounds(6), deepseek, 'deepseek-chat', { cache: 'deepseek' });
    expect(server.requests.every((body) => body.prompt_cache_key === undefined && body.prompt_cache_retention === undefined)).toBe(true);
    const usages = ofType(events, 'usage').map((event) => event.usage);
    for (const usage of usages.slice(1)) {
      expect(usage.cachedInputTokens % 64).toBe(0);
      expect(usage.cachedInputTokens).toBeGreaterThan(0);
    }
    expect(total.cachedInputTokens / total.inputTokens).toBeGreaterThanOrEqual(0.7);
  });
});

describe('cached-token fields of the Chat Completions dialects', () => {
  it('reads DeepSeek, Kimi, Qwen and GLM usage into the one shape (input = the whole prompt)', () => {
    expect(readUsage({ prompt_tokens: 1000, completion_tokens: 5, total_tokens: 1005, prompt_cache_hit_tokens: 896, prompt_cache_miss_tokens: 104 } as never)).toEqual({ inputTokens: 1000, outputTokens: 5, cachedInputTokens: 896, cacheWriteTokens: 0, reasoningTokens: 0 });
    // DeepSeek without prompt_tokens: hit + miss is the prompt.
    expect(readUsage({ completion_tokens: 5, prompt_cache_hit_tokens: 640, prompt_cache_miss_tokens: 60 } as never).inputTokens).toBe(700);
    // Kimi's older API: cached_tokens at the top level.
    expect(readUsage({ prompt_tokens: 500, completion_tokens: 5, total_tokens: 505, cached_tokens: 300 } as never).cachedInputTokens).toBe(300);
    // Qwen's explicit cache: writes in prompt_tokens_details.
    expect(readUsage({ prompt_tokens: 3000, completion_tokens: 5, total_tokens: 3005, prompt_tokens_details: { cached_tokens: 0, cache_creation_input_tokens: 2048 } } as never)).toMatchObject({ cachedInputTokens: 0, cacheWriteTokens: 2048 });
    // GLM and OpenAI: prompt_tokens_details.cached_tokens; nonsense never exceeds the prompt.
    expect(readUsage({ prompt_tokens: 100, completion_tokens: 1, total_tokens: 101, prompt_tokens_details: { cached_tokens: 500 } } as never).cachedInputTokens).toBe(100);
  });
});

describe('Gemini implicit caching', () => {
  async function gemini(script: GeminiStep[], model: string) {
    const server = await startGeminiServer(script);
    closers.push(server);
    const events: AgentEvent[] = [];
    const result = await run(
      { provider: new GoogleProvider({ apiKey: 'k', baseURL: server.url }), model, system: LONG_SYSTEM.repeat(2), input: 'task', tools: new ToolRegistry([echo]), retry: { maxRetries: 0, baseDelayMs: 5, maxDelayMs: 10 } },
      (event) => events.push(event),
    );
    expect(server.violations).toEqual([]);
    return { result, usages: ofType(events, 'usage').map((event) => event.usage) };
  }

  it('reports the shared prefix as cachedContentTokenCount once the prompt passes the model minimum (2,048 on 2.5)', async () => {
    const { usages } = await gemini(rounds(4), 'gemini-2.5-flash');
    expect(usages[0]!.cachedInputTokens).toBe(0);
    for (const usage of usages.slice(1)) expect(usage.cachedInputTokens / usage.inputTokens).toBeGreaterThan(0.8);
  });

  it('caches nothing under the minimum (4,096 on Gemini 3)', async () => {
    const { usages } = await gemini(rounds(2), 'gemini-3-flash-preview');
    expect(usages.every((usage) => usage.cachedInputTokens === 0)).toBe(true);
  });
});
