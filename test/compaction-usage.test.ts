/**
 * A compaction's summary request is a real model request: its tokens belong in the run's usage,
 * in its cost, and under --max-cost, like every other request of the run.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createContextPolicy } from '../src/context/policy.js';
import type { AgentEvent } from '../src/contracts/events.js';
import { run } from '../src/core/loop.js';
import type { Message } from '../src/contracts/messages.js';
import { OpenAIProvider } from '../src/providers/openai/openai-provider.js';
import { courseTools } from '../src/tools/builtin/course.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { startChatServer, type ChatServer, type ServerStep } from './support/chat-server.js';
import { ofType } from './support/harness.js';

const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** Six earlier exchanges of ~600 tokens each: over 80% of a 4096-token window, so the first request compacts. */
function longHistory(): Message[] {
  const messages: Message[] = [];
  for (let i = 0; i < 6; i++) {
    messages.push({ role: 'user', content: `Question ${i}: ${'lorem ipsum dolor sit amet '.repeat(110)}` });
    messages.push({ role: 'assistant', content: `Answer ${i}.`, toolCalls: [] });
  }
  return messages;
}

async function runCompacting(script: ServerStep[], extra: { maxCost?: number } = {}) {
  const server = await startChatServer(script);
  servers.push(server);
  const provider = new OpenAIProvider({ apiKey: 'test-key', baseURL: server.url });
  const tools = new ToolRegistry(courseTools);
  const policy = createContextPolicy({ provider, registry: tools, contextWindow: 4096 });
  const events: AgentEvent[] = [];
  const result = await run(
    {
      provider,
      model: 'priced-model',
      price: { input: 1, cachedInput: 0.5, output: 2 }, // dollars per 1M tokens
      input: 'And now?',
      messages: longHistory(),
      tools,
      prepareMessages: policy.prepareMessages,
      ...extra,
    },
    (event) => events.push(event),
  );
  return { server, result, events };
}

const summaryReply = { text: 'Goal: questions. Decisions: none.', usage: { inputTokens: 300_000, outputTokens: 1_000 } };

describe('the usage of a compaction', () => {
  it('is in the run total, in a usage event of its own, and in the cost', async () => {
    const { server, result, events } = await runCompacting([summaryReply, { text: 'Done.', usage: { inputTokens: 1_000, outputTokens: 10 } }]);
    expect(result.stopReason).toBe('answered');
    expect(server.requests).toHaveLength(2);
    expect(ofType(events, 'compaction')).toHaveLength(1);
    expect(result.usage).toMatchObject({ inputTokens: 301_000, outputTokens: 1_010 });
    const usageEvents = ofType(events, 'usage');
    expect(usageEvents.map((e) => e.usage.inputTokens)).toEqual([300_000, 1_000]);
    expect(usageEvents.at(-1)!.total).toEqual(result.usage);
    expect(result.cost).toBeCloseTo(0.301 + 0.00202, 6);
  });

  it('counts against --max-cost: an expensive summary stops the run before the next request', async () => {
    const { server, result } = await runCompacting([summaryReply, { text: 'never sent' }], { maxCost: 0.1 });
    expect(result.stopReason).toBe('cost_limit');
    expect(server.requests).toHaveLength(1);
    expect(result.answer).toBeNull();
  });
});

describe('the usage of a turn-limit hand-off', () => {
  it('gets a usage event too, so the usage events add up to the stop event (what sessions and the status line sum)', async () => {
    const server = await startChatServer([
      { toolCalls: [{ name: 'calculator', arguments: { expression: '1+1' } }], usage: { inputTokens: 100, outputTokens: 5 } },
      { text: 'Hand-off: computed 1+1.', usage: { inputTokens: 150, outputTokens: 7 } },
    ]);
    servers.push(server);
    const provider = new OpenAIProvider({ apiKey: 'test-key', baseURL: server.url });
    const events: AgentEvent[] = [];
    const result = await run({ provider, model: 'm', input: 'go', tools: new ToolRegistry(courseTools), maxTurns: 1 }, (event) => events.push(event));
    expect(result).toMatchObject({ stopReason: 'turn_limit', handoff: 'Hand-off: computed 1+1.' });
    const usageEvents = ofType(events, 'usage');
    expect(usageEvents.map((e) => e.usage.inputTokens)).toEqual([100, 150]);
    expect(ofType(events, 'stop')[0]!.usage).toEqual(usageEvents.at(-1)!.total);
  });
});
