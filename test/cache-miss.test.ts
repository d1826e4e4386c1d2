import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { explainMiss } from '../src/core/explain-miss.js';
import { CacheWatch } from '../src/core/cache-watch.js';
import type { ModelRequest } from '../src/contracts/provider.js';
import type { Message, Usage } from '../src/contracts/messages.js';
import { defineTool } from '../src/tools/define-tool.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { createContextPolicy } from '../src/context/policy.js';
import { OpenAIProvider } from '../src/providers/openai/openai-provider.js';
import { run } from '../src/core/loop.js';
import type { AgentEvent } from '../src/contracts/events.js';
import { startChatServer } from './support/chat-server.js';

const tool = (name: string) => ({ name, description: `the ${name} tool`, parameters: { type: 'object', properties: {} } });
const base: ModelRequest = {
  model: 'gpt-5',
  temperature: 0,
  tools: [tool('read_file')],
  messages: [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'go' },
  ],
};
const more = (request: ModelRequest, ...messages: Message[]): ModelRequest => ({ ...request, messages: [...request.messages, ...messages] });
const call: Message = { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{}' }] };
const result: Message = { role: 'tool', toolCallId: 'c1', name: 'read_file', content: 'x'.repeat(500), isError: false };
const TTL = 300_000;

describe('why a request misses the prompt cache', () => {
  it('names nothing when the request is the previous one plus new messages, sent in time', () => {
    expect(explainMiss(base, more(base, call, result), 1_000, TTL)).toBeUndefined();
  });

  it('names the first thing that differs, in cache order: model, tools, system prompt, messages', () => {
    const next = more(base, call, result);
    expect(explainMiss(base, { ...next, model: 'gpt-5-mini', tools: [] }, 0, TTL)).toEqual({ kind: 'model', why: 'model switched from gpt-5 to gpt-5-mini' });
    expect(explainMiss(base, { ...next, tools: [tool('read_file'), tool('mcp__s__shout')] }, 0, TTL)).toEqual({ kind: 'tools', why: 'tool list changed: added mcp__s__shout' });
    expect(explainMiss(base, { ...next, tools: [{ ...tool('read_file'), description: 'other' }] }, 0, TTL)?.why).toBe('tool list changed: a schema or the order differs');
    const system = { ...next, messages: [{ role: 'system' as const, content: 'Today is Friday.' }, ...next.messages.slice(1)] };
    expect(explainMiss(base, system, 0, TTL)).toEqual({ kind: 'system', why: 'system prompt changed' });
    const edited = { ...next, messages: [next.messages[0]!, { role: 'user' as const, content: 'went' }, ...next.messages.slice(2)] };
    expect(explainMiss(base, edited, 0, TTL)).toEqual({ kind: 'message', why: 'message 1 (user) changed' });
  });

  it('names the context policy as the cause when it rewrote the history: stubs, compaction', () => {
    const before = more(base, call, result, { ...call, toolCalls: [{ id: 'c2', name: 'read_file', arguments: '{}' }] }, { ...result, toolCallId: 'c2' });
    const stubbed = { ...before, messages: before.messages.map((m, i) => (i === 3 ? { ...result, content: '[output of read_file elided: 500 chars; read_output id out_0123456789ab]' } : m)) };
    expect(explainMiss(before, stubbed, 0, TTL, { stubbing: true })?.kind).toBe('stubbing');
    const compacted = { ...before, messages: [before.messages[0]!, { role: 'user' as const, content: '[Summary of the earlier conversation …]' }, ...before.messages.slice(4)] };
    expect(explainMiss(before, compacted, 0, TTL, { compaction: true })).toEqual({ kind: 'compaction', why: 'compaction replaced the history from message 1' });
  });

  it('names an idle gap longer than the cache lives (5 minutes, or 1 hour)', () => {
    expect(explainMiss(base, more(base, call), 301_000, TTL)).toEqual({ kind: 'idle', why: "idle 5m, longer than the cache's 5m lifetime" });
    expect(explainMiss(base, more(base, call), 301_000, 3_600_000)).toBeUndefined();
  });
});

describe('the cache watch', () => {
  const usage = (input: number, read: number, written = 0): Usage => ({ inputTokens: input, cachedInputTokens: read, cacheWriteTokens: written, outputTokens: 5, reasoningTokens: 0 });

  it('splits each request into read, written and uncached tokens, and warns once after 3 misses in a row for one reason', () => {
    let clock = 0;
    const watch = new CacheWatch({ ttlMs: TTL, now: () => clock });
    let request = base;
    watch.sending(request, {});
    expect(watch.received(usage(2_000, 0, 2_000), 1)).toEqual({ cache: { read: 0, written: 2_000, uncached: 0 } });
    const warnings: AgentEvent[] = [];
    for (let turn = 2; turn <= 5; turn++) {
      clock += 400_000;
      request = more(request, call, result);
      watch.sending(request, {});
      const seen = watch.received(usage(2_000 + turn * 100, 0, 2_000 + turn * 100), turn);
      expect(seen.cache.why).toBe("idle 6.7m, longer than the cache's 5m lifetime");
      if (seen.warning) warnings.push(seen.warning);
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ type: 'context_warning', turn: 4 });
    expect((warnings[0] as { message: string }).message).toContain('missed 3 requests in a row');
    // In time again: a hit, nothing to explain.
    clock += 1_000;
    watch.sending(more(request, call), {});
    expect(watch.received(usage(2_600, 2_500, 100), 6)).toEqual({ cache: { read: 2_500, written: 100, uncached: 0 } });
  });

  it('names the provider when nothing changed yet nothing was read, once the provider has shown it caches', () => {
    const watch = new CacheWatch({ now: () => 0 });
    watch.sending(base, {});
    watch.received(usage(5_000, 0, 5_000), 1);
    watch.sending(more(base, call), {});
    expect(watch.received(usage(5_100, 0, 0), 2).cache.why).toBe('the provider read nothing from its cache though the prefix was unchanged');
    // A previous prompt under some provider's minimum (up to 4,096 tokens) may not have been cached at all.
    watch.sending(more(base, call, result), {});
    watch.received(usage(3_000, 3_000, 0), 3);
    watch.sending(more(base, call, result, call), {});
    expect(watch.received(usage(3_100, 0, 0), 4).cache.why).toBeUndefined();
    // A local server that reports no cache use has no misses to explain.
    const local = new CacheWatch({ now: () => 0 });
    local.sending(base, {});
    local.received(usage(2_000, 0), 1);
    local.sending(more(base, call), {});
    expect(local.received(usage(2_100, 0), 2).cache.why).toBeUndefined();
  });
});

describe('the tool list over a run (real SDK, real HTTP)', () => {
  it('stays fixed when a tool joins mid-run (an MCP list change), and the new tool joins with the next task, named as the miss', async () => {
    const registry = new ToolRegistry();
    const shout = defineTool({ name: 'mcp__s__shout', description: 'Shout.', parameters: z.object({}), readOnly: true, execute: async () => 'HI' });
    registry.register(
      defineTool({
        name: 'grow',
        description: 'Adds a tool, as an MCP server does after tools/list_changed.',
        parameters: z.object({}),
        readOnly: true,
        execute: async () => {
          registry.register(shout);
          return 'grown';
        },
      }),
    );
    const server = await startChatServer([{ toolCalls: [{ name: 'grow', arguments: {} }] }, { text: 'grew' }, { text: 'next task done' }]);
    try {
      const provider = new OpenAIProvider({ apiKey: 'k', baseURL: server.url });
      const policy = createContextPolicy({ provider, registry, offerReadOutput: (t) => registry.register(t) });
      const options = { provider, model: 'test-model', tools: registry, prepareMessages: policy.prepareMessages, cacheWatch: new CacheWatch(), retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 } };
      const first = await run({ ...options, input: 'grow' });
      const events: AgentEvent[] = [];
      await run({ ...options, input: 'next', messages: first.messages }, (event) => events.push(event));
      expect(server.violations).toEqual([]);
      const names = server.requests.map((body) => body.tools?.map((t) => t.function.name));
      expect(names[0]).toEqual(['grow', 'read_output']);
      expect(names[1]).toEqual(['grow', 'read_output']);
      expect(names[2]).toEqual(['grow', 'read_output', 'mcp__s__shout']);
      const usage = events.find((event) => event.type === 'usage');
      expect(usage?.type === 'usage' && usage.cache?.why).toBe('tool list changed: added mcp__s__shout');
    } finally {
      await server.close();
    }
  });
});
