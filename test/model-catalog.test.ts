/** The model catalog loads after a run's first request, never before; then its prices and windows win over the built-in table. */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { describe, expect, it } from 'vitest';
import { run } from '../src/core/loop.js';
import { createContextPolicy } from '../src/context/policy.js';
import { knownWindow } from '../src/context/model-windows.js';
import { AnthropicProvider } from '../src/providers/anthropic/anthropic-provider.js';
import { catalogLoaded } from '../src/providers/shared/model-catalog.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { startAnthropicServer } from './support/anthropic-server.js';

describe('the model catalog', () => {
  it('is not loaded when the first request goes out; after the run it prices it and gives the windows', async () => {
    // This file's own module graph: nothing else loaded the catalog before.
    expect(catalogLoaded()).toBe(false);
    const loadedAtRequest: boolean[] = [];
    // When the request's body has been sent (the run subscribes after this, so this is told first); the catalog then loads while it is out.
    const onSent = () => loadedAtRequest.push(catalogLoaded());
    subscribe('undici:request:bodySent', onSent);
    const server = await startAnthropicServer([{ text: 'done', usage: { inputTokens: 1000, outputTokens: 100 } }]);
    try {
      const provider = new AnthropicProvider({ apiKey: 'sk-ant-test', baseURL: server.url });
      const context = createContextPolicy({ provider, registry: new ToolRegistry([]) });
      // Before the catalog: the built-in table's window.
      expect(context.settings('claude-opus-5').window).toBe(200_000);
      const result = await run({ provider, model: 'claude-opus-5', input: 'task', tools: new ToolRegistry([]), prepareMessages: context.prepareMessages });
      expect(loadedAtRequest).toEqual([false]);
      expect(catalogLoaded()).toBe(true);
      // Claude Opus 5 at the catalog's $5 in, $25 out per million.
      expect(result.cost).toBeGreaterThan(0);
      expect(result.cost).toBeCloseTo((1000 * 5 + 100 * 25) / 1e6, 10);
      // Now the catalog's window, in the policy too.
      expect(knownWindow('claude-opus-5')).toBe(1_000_000);
      expect(context.settings('claude-opus-5').window).toBe(1_000_000);
      // The table still answers for what the catalog lacks a window for.
      expect(knownWindow('qwen-plus')).toBe(131_072);
    } finally {
      unsubscribe('undici:request:bodySent', onSent);
      await server.close();
    }
  });
});
