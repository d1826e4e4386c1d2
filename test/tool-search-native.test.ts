/**
 * Tool search on Anthropic's own path: every tool sent with the deferred ones marked
 * `defer_loading`, tool_search's result sent as `tool_reference` blocks, the found tool called by
 * its own name; the tools byte-identical on every request. A proxy that refuses the format refuses
 * it (so the CLI falls back to the bridge there; see the doctor's probe).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../src/core/loop.js';
import type { AgentEvent } from '../src/contracts/events.js';
import { AnthropicProvider } from '../src/providers/anthropic/anthropic-provider.js';
import { startAnthropicServer, type AnthropicStep } from './support/anthropic-server.js';
import type { WireBlock } from './support/anthropic-protocol-check.js';
import { ofType } from './support/harness.js';
import { searchRegistry, startManyTools, type ManyTools } from './support/many-tools.js';

let many: ManyTools;
beforeAll(async () => {
  many = await startManyTools({ alwaysLoad: 'list_invoices' });
}, 180_000);
afterAll(async () => {
  await many?.close();
});

const INVOICE = 'mcp__billing__create_invoice';

async function session(script: AnthropicStep[], options: { refuseToolSearch?: boolean; native?: boolean } = {}) {
  const server = await startAnthropicServer(script, { refuseToolSearch: options.refuseToolSearch === true });
  const { registry } = searchRegistry(many, { native: options.native ?? true });
  const events: AgentEvent[] = [];
  try {
    const result = await run(
      { provider: new AnthropicProvider({ apiKey: 'sk-ant-test', baseURL: server.url }), model: 'claude-sonnet-4-5', system: 'You are a helpful agent.', input: 'File the March invoice.', tools: registry, maxTurns: 30, retry: { maxRetries: 0, baseDelayMs: 5, maxDelayMs: 10 } },
      (event) => events.push(event),
    );
    return { server, result, events };
  } finally {
    await server.close();
  }
}

describe('tool search on the Anthropic native path (defer_loading + tool_reference)', () => {
  it('sends every tool, deferred ones marked, byte-identical on all 20 requests; the search result references the tool; the model calls it by name', async () => {
    const script: AnthropicStep[] = [{ toolCalls: [{ name: 'tool_search', arguments: { query: 'create invoice', limit: 3 } }] }];
    for (let round = 2; round < 20; round++) script.push({ toolCalls: [{ name: INVOICE, arguments: { title: `round ${round}` } }] });
    script.push({ text: 'done' });
    const { server, result, events } = await session(script);
    expect(server.violations).toEqual([]);
    expect(result).toMatchObject({ stopReason: 'answered', turns: 20 });

    const sent = server.requests.map((body) => JSON.stringify(body.tools));
    expect(new Set(sent).size).toBe(1);
    const tools = server.requests[0]!.tools as Array<{ name: string; defer_loading?: boolean; cache_control?: unknown }>;
    expect(tools).toHaveLength(201);
    expect(tools.filter((tool) => tool.defer_loading).length).toBe(199);
    // The server's always-loaded tool is sent as usual; tool_search is last and carries the breakpoint.
    expect(tools.find((tool) => tool.name === 'mcp__billing__list_invoices')!.defer_loading).toBeUndefined();
    expect(tools.at(-1)).toMatchObject({ name: 'tool_search', cache_control: { type: 'ephemeral' } });
    expect(tools.at(-1)!.defer_loading).toBeUndefined();

    const result1 = (server.requests[1]!.messages.at(-1)!.content as WireBlock[])[0]!;
    expect(result1).toMatchObject({ type: 'tool_result', content: [{ type: 'tool_reference', tool_name: INVOICE }, { type: 'tool_reference' }, { type: 'tool_reference' }] });
    const ends = ofType(events, 'tool_call_end');
    expect(ends[1]).toMatchObject({ name: INVOICE, status: 'ok', output: 'billing.create_invoice {"title":"round 2"}' });
    const deferred = ofType(events, 'tool_search')[0]!;
    expect(deferred).toMatchObject({ action: 'deferred', alwaysLoaded: ['mcp__billing__list_invoices'] });
  }, 120_000);

  it('a proxy that does not know the format refuses it; the bridge works through the same proxy', async () => {
    const refused = await session([{ text: 'unused' }], { refuseToolSearch: true });
    expect(refused.result.stopReason).toBe('provider_error');
    expect(refused.server.violations[0]).toMatch(/defer_loading: Extra inputs are not permitted/);

    const bridged = await session([{ toolCalls: [{ name: 'tool_search', arguments: { query: 'select:mcp__billing__create_invoice' } }] }, { toolCalls: [{ name: 'call_tool', arguments: { name: INVOICE, arguments: { title: 'March' } } }] }, { text: 'done' }], { refuseToolSearch: true, native: false });
    expect(bridged.server.violations).toEqual([]);
    expect(ofType(bridged.events, 'tool_call_end')[1]).toMatchObject({ name: INVOICE, output: 'billing.create_invoice {"title":"March"}' });
  }, 120_000);
});
