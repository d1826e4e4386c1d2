/** Anthropic prompt caching on the wire: the breakpoints the provider places, the rules the server enforces, what it bills. */
import Anthropic from '@anthropic-ai/sdk';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { run, type AgentOptions } from '../src/core/loop.js';
import type { AgentEvent } from '../src/contracts/events.js';
import { addUsage, emptyUsage, type Usage } from '../src/contracts/messages.js';
import { AnthropicProvider, type AnthropicProviderOptions } from '../src/providers/anthropic/anthropic-provider.js';
import { costOf } from '../src/providers/pricing.js';
import { defineTool } from '../src/tools/define-tool.js';
import { ToolRegistry } from '../src/tools/registry.js';
import type { AnthropicRequestBody, WireBlock } from './support/anthropic-protocol-check.js';
import { startAnthropicServer, type AnthropicServer, type AnthropicStep } from './support/anthropic-server.js';
import { ofType } from './support/harness.js';
import { homeEnv, spawnCli } from './support/cli-process.js';

const servers: AnthropicServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const echo = defineTool({ name: 'echo', description: 'Echoes.', parameters: z.object({ v: z.string() }), readOnly: true, execute: async ({ v }) => `echo ${v} ${'output '.repeat(20)}` });
// A tool list long enough to be worth its own breakpoint on a 1,024-token model.
const manual = defineTool({ name: 'manual', description: `Reads the manual. ${'Every option is described here. '.repeat(160)}`, parameters: z.object({}), readOnly: true, execute: async () => 'ok' });
const LONG_SYSTEM = `You are a careful coding agent. ${'Follow the project rules and keep answers short. '.repeat(120)}`;

const call = (v: string) => ({ toolCalls: [{ name: 'echo', arguments: { v } }] });

async function session(script: AnthropicStep[], options: Omit<Partial<AgentOptions>, 'provider'> & { anthropic?: Partial<AnthropicProviderOptions> } = {}) {
  const server = await startAnthropicServer(script);
  servers.push(server);
  const { anthropic, ...rest } = options;
  const events: AgentEvent[] = [];
  const result = await run(
    {
      provider: new AnthropicProvider({ apiKey: 'sk-ant-test', baseURL: server.url, ...anthropic }),
      model: 'claude-sonnet-4-5',
      system: LONG_SYSTEM,
      input: 'task',
      tools: new ToolRegistry([echo]),
      retry: { maxRetries: 0, baseDelayMs: 5, maxDelayMs: 10 },
      ...rest,
    },
    (event) => events.push(event),
  );
  expect(server.violations).toEqual([]);
  return { server, result, events };
}

/** Where a request's breakpoints are: "tools.N", "system.N", "messages.N.content.M", with their ttl. */
function breakpoints(body: AnthropicRequestBody): string[] {
  const found: string[] = [];
  const mark = (path: string, block: unknown) => {
    const marker = (block as { cache_control?: { ttl?: string } }).cache_control;
    if (marker) found.push(`${path}${marker.ttl ? `@${marker.ttl}` : ''}`);
  };
  (body.tools ?? []).forEach((tool, i) => mark(`tools.${i}`, tool));
  if (Array.isArray(body.system)) (body.system as WireBlock[]).forEach((block, i) => mark(`system.${i}`, block));
  body.messages.forEach((message, i) => {
    if (Array.isArray(message.content)) message.content.forEach((block, j) => mark(`messages.${i}.content.${j}`, block));
  });
  return found;
}

describe('Anthropic cache breakpoints on the wire', () => {
  it('marks the last tool, the system prompt, the newest message and the user message before the newest reply: four, in the API order', async () => {
    const { server } = await session([call('a'), call('b'), { text: 'done' }], { tools: new ToolRegistry([echo, manual]) });
    expect(breakpoints(server.requests[0]!)).toEqual(['tools.1', 'system.0', 'messages.0.content.0']);
    // Request 2: task, reply (tool_use), results; the previous request's breakpoint (the task) is marked again.
    expect(breakpoints(server.requests[1]!)).toEqual(['tools.1', 'system.0', 'messages.0.content.0', 'messages.2.content.0']);
    expect(breakpoints(server.requests[2]!)).toEqual(['tools.1', 'system.0', 'messages.2.content.0', 'messages.4.content.0']);
    for (const body of server.requests) expect(breakpoints(body).length).toBeLessThanOrEqual(4);
  });

  it('leaves off a breakpoint whose prefix is under the model minimum (4,096 tokens on Haiku 4.5): nothing is written', async () => {
    const { server, result } = await session([{ text: 'short' }], { model: 'claude-haiku-4-5', system: 'Be brief.' });
    expect(breakpoints(server.requests[0]!)).toEqual([]);
    expect(result.usage.cacheWriteTokens).toBe(0);
    // On Sonnet (1,024) the same long system prompt is worth a breakpoint.
    const sonnet = await session([{ text: 'short' }]);
    expect(breakpoints(sonnet.server.requests[0]!)).toEqual(['system.0', 'messages.0.content.0']);
    expect(sonnet.result.usage.cacheWriteTokens).toBeGreaterThan(1024);
  });

  it('with a one-hour TTL keeps the tools and system prompt an hour and the rolling pair five minutes (longer first), and bills the 1h writes apart', async () => {
    const { server, result } = await session([call('a'), { text: 'done' }], { tools: new ToolRegistry([echo, manual]), anthropic: { promptCache: '1h' } });
    expect(breakpoints(server.requests[1]!)).toEqual(['tools.1@1h', 'system.0@1h', 'messages.0.content.0', 'messages.2.content.0']);
    expect(result.usage.cacheWrite1hTokens).toBeGreaterThan(1024);
    expect(result.usage.cacheWriteTokens).toBeGreaterThan(result.usage.cacheWrite1hTokens!);
  });

  it('never marks a thinking block: with thinking on, the mark goes on the last other block', async () => {
    const { server } = await session([{ reasoning: 'let me look', ...call('a') }, { reasoning: 'done now', text: 'done' }], { anthropic: { thinkingBudget: 2048 } });
    const second = server.requests[1]!;
    expect(breakpoints(second)).toEqual(['system.0', 'messages.0.content.0', 'messages.2.content.0']);
    const reply = second.messages[1]!.content as WireBlock[];
    expect(reply[0]!.type).toBe('thinking');
    expect(reply.every((block) => block.cache_control === undefined)).toBe(true);
  });

  it('sends no breakpoint with promptCache off', async () => {
    const { server, result } = await session([call('a'), { text: 'done' }], { anthropic: { promptCache: false } });
    expect(server.requests.flatMap(breakpoints)).toEqual([]);
    expect(result.usage.cachedInputTokens).toBe(0);
  });

  it('reads at least 80% of a growing session from the cache, and its cost counts writes at 1.25× and reads at 0.1×', async () => {
    const rounds = Array.from({ length: 12 }, (_, i) => call(`r${i}`));
    const { events, result } = await session([...rounds, { text: 'done' }]);
    const usages = ofType(events, 'usage').map((event) => event.usage);
    const total = usages.reduce((sum, usage) => addUsage(sum, usage), emptyUsage());
    expect(total.cachedInputTokens / total.inputTokens).toBeGreaterThanOrEqual(0.8);
    // From the second request on, each reads what the one before wrote.
    for (const usage of usages.slice(1)) expect(usage.cachedInputTokens).toBeGreaterThan(0);
    const expected = usages.reduce((sum, usage) => sum + writeAwareCost(usage), 0);
    expect(result.cost).toBeCloseTo(expected, 10);
    expect(result.cost).toBeCloseTo(costOf('claude-sonnet-4-5', total)!, 10);
  });
});

/** claude-sonnet-4-5 at $3 in, $0.30 cached, $15 out; writes $3.75 (5m) and $6 (1h) per million. */
function writeAwareCost(usage: Usage): number {
  const plain = usage.inputTokens - usage.cachedInputTokens - usage.cacheWriteTokens;
  const writes1h = usage.cacheWrite1hTokens ?? 0;
  return (plain * 3 + usage.cachedInputTokens * 0.3 + (usage.cacheWriteTokens - writes1h) * 3.75 + writes1h * 6 + usage.outputTokens * 15) / 1_000_000;
}

describe('the Anthropic test server refuses what the API refuses about cache_control', () => {
  async function client() {
    const server = await startAnthropicServer([{ text: 'ok' }, { text: 'ok' }]);
    servers.push(server);
    return { server, sdk: new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.url, maxRetries: 0 }) };
  }
  const text = (t: string, ttl?: '5m' | '1h') => ({ type: 'text' as const, text: t, cache_control: { type: 'ephemeral' as const, ...(ttl ? { ttl } : {}) } });

  it('a fifth breakpoint: HTTP 400 invalid_request_error, as the API words it', async () => {
    const { sdk } = await client();
    const error = await sdk.messages
      .create({ model: 'claude-sonnet-4-5', max_tokens: 100, system: [text('a'), text('b')], messages: [{ role: 'user', content: [text('c'), text('d'), text('e')] }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    const apiError = error as InstanceType<typeof Anthropic.BadRequestError>;
    expect(apiError.status).toBe(400);
    expect(apiError.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(apiError.message).toContain('A maximum of 4 blocks with cache_control may be provided. Found 5.');
  });

  it('a one-hour breakpoint after a five-minute one, and the top-level automatic one counted among the four', async () => {
    const { sdk } = await client();
    const misordered = await sdk.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 100, system: [text('a')], messages: [{ role: 'user', content: [text('b', '1h')] }] }).catch((e: unknown) => e);
    expect((misordered as Error).message).toMatch(/ttl='1h' cache_control block must not come after a ttl='5m'/);
    const automatic = await sdk.messages
      .create({ model: 'claude-sonnet-4-5', max_tokens: 100, cache_control: { type: 'ephemeral' }, system: [text('a'), text('b')], messages: [{ role: 'user', content: [text('c'), text('d')] }] })
      .catch((e: unknown) => e);
    expect((automatic as Error).message).toContain('Found 5.');
  });

  it('cache_control on a thinking block', async () => {
    const { sdk } = await client();
    const error = await sdk.messages
      .create({
        model: 'claude-sonnet-4-5',
        max_tokens: 4096,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm', signature: 'sig', cache_control: { type: 'ephemeral' } } as never, { type: 'text', text: 'hello' }] },
          { role: 'user', content: 'again' },
        ],
      })
      .catch((e: unknown) => e);
    expect((error as Error).message).toContain('messages.1.content.0.thinking.cache_control: Extra inputs are not permitted');
  });

  it('automatic caching (top-level cache_control) writes the whole prompt, and the next request reads it', async () => {
    const { sdk } = await client();
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: LONG_SYSTEM }];
    const first = await sdk.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 100, cache_control: { type: 'ephemeral' }, messages });
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(1024);
    expect(first.usage.cache_read_input_tokens).toBe(0);
    const second = await sdk.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 100, cache_control: { type: 'ephemeral' }, messages: [...messages, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'more' }] });
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens);
  });
});

describe('vibe-agent --cache-ttl', () => {
  const home = mkdtempSync(join(tmpdir(), 'vibe-cache-ttl-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  const cli = (args: string[], url: string) => spawnCli(['--provider', 'anthropic', ...args], { cwd: home, env: { ...homeEnv(home), ANTHROPIC_API_KEY: 'sk-ant-cli', ANTHROPIC_BASE_URL: url } });

  it('1h: the built CLI sends one-hour breakpoints on its tools and system prompt, five-minute ones after; off: none', async () => {
    const server = await startAnthropicServer([{ text: 'one' }, { text: 'two' }]);
    servers.push(server);
    const hour = await cli(['--cache-ttl', '1h', 'say one'], server.url);
    expect(hour.code, hour.stderr).toBe(0);
    expect(breakpoints(server.requests[0]!)).toEqual([`tools.${server.requests[0]!.tools!.length - 1}@1h`, 'system.0@1h', 'messages.0.content.0']);
    const off = await cli(['--cache-ttl', 'off', 'say two'], server.url);
    expect(off.code, off.stderr).toBe(0);
    expect(breakpoints(server.requests[1]!)).toEqual([]);
    expect(server.violations).toEqual([]);
  });

  it('refuses a lifetime the API does not have', async () => {
    const ran = await cli(['--cache-ttl', '10m', 'hi'], 'http://127.0.0.1:9');
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('--cache-ttl must be one of 5m, 1h, off, got "10m"');
  });
});
