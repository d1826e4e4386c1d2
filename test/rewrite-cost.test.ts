import { describe, expect, it } from 'vitest';
import { rewritePays, expectedRemainingRequests } from '../src/context/rewrite-cost.js';
import { cachePricesFor } from '../src/context/cache-prices.js';
import { bigOutput, runContextSession } from './support/context-session.js';
import { defineTool } from '../src/tools/define-tool.js';
import { z } from 'zod';
import type { Message } from '../src/contracts/messages.js';

const openai = cachePricesFor('gpt-5', 'openai');
const anthropic = cachePricesFor('claude-sonnet-4-5', 'anthropic');

describe('the rewrite cost model', () => {
  it('reads prices through the pricing module: reads at 10%, Anthropic writes at 125%, a free write elsewhere', () => {
    expect(openai.cachedRead / openai.uncached).toBeCloseTo(0.1);
    expect(openai.write).toBe(openai.uncached);
    expect(anthropic.write / anthropic.uncached).toBeCloseTo(1.25);
    // An unknown model: the ratios every prompt cache bills.
    expect(cachePricesFor('local-model', 'openai')).toEqual({ uncached: 1, cachedRead: 0.1, write: 1 });
  });

  it('keeps appending until carrying since the last rewrite reaches the price of one rewrite', () => {
    const question = { prices: openai, savedTokens: 10_000, rewrittenTokens: 20_000, remainingRequests: 50, cold: false };
    // One rewrite: 20k tokens past the cached prefix at (1.25 − 0.125) $/M; carrying 10k costs 0.125 per request.
    const rewriteCost = 20_000 * (openai.write - openai.cachedRead);
    const carryNow = 10_000 * openai.cachedRead;
    expect(rewritePays({ ...question, carriedSoFar: 0 }).rewrite).toBe(false);
    expect(rewritePays({ ...question, carriedSoFar: rewriteCost - carryNow - 1 }).rewrite).toBe(false);
    expect(rewritePays({ ...question, carriedSoFar: rewriteCost - carryNow }).rewrite).toBe(true);
  });

  it('does not rewrite near the expected end of a task, when the saving ahead cannot pay for the miss', () => {
    const rewriteCost = 20_000 * (anthropic.write - anthropic.cachedRead);
    const answer = rewritePays({ prices: anthropic, savedTokens: 10_000, rewrittenTokens: 20_000, remainingRequests: 1, carriedSoFar: rewriteCost * 2, cold: false });
    expect(answer.rewrite).toBe(false);
    expect(answer.carryAhead).toBeLessThan(answer.rewriteCost);
  });

  it('rewrites at once when the cache has expired (the request misses whatever is sent), and never for nothing', () => {
    expect(rewritePays({ prices: anthropic, savedTokens: 500, rewrittenTokens: 90_000, remainingRequests: 1, carriedSoFar: 0, cold: true }).rewrite).toBe(true);
    expect(rewritePays({ prices: anthropic, savedTokens: 0, rewrittenTokens: 0, remainingRequests: 9, carriedSoFar: 9, cold: true }).rewrite).toBe(false);
  });

  it('expects as many requests ahead as the task has made (at least one)', () => {
    const round = (n: number): Message[] => [
      { role: 'assistant', content: '', toolCalls: [{ id: `c${n}`, name: 't', arguments: '{}' }] },
      { role: 'tool', toolCallId: `c${n}`, name: 't', content: 'x', isError: false },
    ];
    expect(expectedRemainingRequests([{ role: 'user', content: 'go' }])).toBe(1);
    expect(expectedRemainingRequests([{ role: 'user', content: 'old' }, ...round(1), { role: 'user', content: 'go' }, ...round(2), ...round(3)])).toBe(2);
  });

  it('in a run, rewrites only when the rule says so: each rewrite point is one miss, spaced, and outputs are never stubbed one per round', async () => {
    let turns = 0;
    const tool = defineTool({ name: 'read_file', description: 'Read a file (test stand-in).', parameters: z.object({ n: z.number().int() }), readOnly: true, execute: async ({ n }) => bigOutput(n, 12_000) });
    const { events, server } = await runContextSession(
      () => (++turns <= 40 ? { toolCalls: [{ name: 'read_file', arguments: { n: turns } }] } : { text: 'done' }),
      { tools: [tool], policy: { contextWindow: 128_000 }, agent: { maxTurns: 50 } },
    );
    expect(server.violations).toEqual([]);
    const rewrites = events.flatMap((e) => (e.type === 'context_rewrite' ? [e] : []));
    expect(rewrites.length).toBeGreaterThan(0);
    for (const rewrite of rewrites) {
      expect(rewrite.reason).toBe('cost');
      // A batch, not one output a round: at least the rewrite's price was paid in carrying first.
      expect(rewrite.stubbed.length).toBeGreaterThan(1);
    }
    const turnsOf = rewrites.map((r) => r.turn);
    for (let i = 1; i < turnsOf.length; i++) expect(turnsOf[i]! - turnsOf[i - 1]!).toBeGreaterThan(2);
    // Far under the window, so nothing had to be compacted.
    expect(events.some((e) => e.type === 'compaction')).toBe(false);
  }, 60_000);
});
