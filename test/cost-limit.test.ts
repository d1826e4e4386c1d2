import { describe, expect, it } from 'vitest';
import { calculatorTool } from '../src/tools/builtin/calculator.js';
import { costOf, priceOf, PRICES } from '../src/providers/pricing.js';
import { ofType, runScenario } from './support/harness.js';

const usage = (inputTokens: number, outputTokens: number, cachedInputTokens = 0) => ({ inputTokens, outputTokens, cachedInputTokens, cacheWriteTokens: 0, reasoningTokens: 0 });
const calc = { toolCalls: [{ name: 'calculator', arguments: { expression: '1+1' } }], usage: { inputTokens: 100_000, outputTokens: 10_000 } };

describe('prices', () => {
  it('finds a family from dated, routed and prefixed names, longest name first', () => {
    expect(priceOf('gpt-4o-2024-08-06')).toBe(PRICES['gpt-4o']);
    expect(priceOf('gpt-4o-mini')).toBe(PRICES['gpt-4o-mini']);
    expect(priceOf('openai/gpt-4.1-mini')).toBe(PRICES['gpt-4.1-mini']);
    expect(priceOf('models/gemini-2.5-pro')).toBe(PRICES['gemini-2.5-pro']);
    expect(priceOf('claude-sonnet-4-5-20250929')).toBe(PRICES['claude-sonnet-4-5']);
    expect(priceOf('kimi-k2-0905-preview')).toBe(PRICES['kimi-k2']);
    expect(priceOf('gpt-4oxyz')).toBeUndefined();
    expect(priceOf('llama3.1:8b')).toBeUndefined();
  });

  it('charges cached input at the cached rate and is undefined for an unknown model', () => {
    // gpt-4o: $2.50 in, $1.25 cached, $10 out per 1M.
    expect(costOf('gpt-4o', usage(1_000_000, 100_000, 400_000))).toBeCloseTo(0.6 * 2.5 + 0.4 * 1.25 + 0.1 * 10, 10);
    expect(costOf('my-local-model', usage(10, 10))).toBeUndefined();
  });
});

describe('the cost brake', () => {
  it('stops with cost_limit before the request after the one that passed the limit, with the cost on the stop event', async () => {
    const { result, events, server } = await runScenario([calc, calc, calc, { text: 'never reached' }], { model: 'gpt-4o', maxCost: 0.5, toolList: [calculatorTool] });
    // Each reply costs 0.1M × $2.50 + 0.01M × $10 = $0.35: over $0.50 after the second.
    expect(server.requests.length).toBe(2);
    expect(result.stopReason).toBe('cost_limit');
    expect(result.cost).toBeCloseTo(0.7, 10);
    const stop = ofType(events, 'stop')[0]!;
    expect(stop.cost).toBeCloseTo(0.7, 10);
    expect(stop.error).toMatch(/\$0\.7000, over the limit of \$0\.5/);
    // The calls of the last reply were answered, so the history can be resumed.
    expect(result.messages.at(-1)).toMatchObject({ role: 'tool', content: '1+1 = 2' });
  });

  it('lets a run that stays under the limit answer, and reports its cost', async () => {
    const { result } = await runScenario([calc, { text: 'two', usage: { inputTokens: 1000, outputTokens: 10 } }], { model: 'gpt-4o-mini', maxCost: 1, toolList: [calculatorTool] });
    expect(result.stopReason).toBe('answered');
    expect(result.cost).toBeCloseTo((101_000 * 0.15 + 10_010 * 0.6) / 1e6, 10);
  });

  it('refuses to start when the model has no known price and none is given', async () => {
    const { result, server } = await runScenario([{ text: 'x' }], { model: 'mystery-model', maxCost: 1 });
    expect(result.stopReason).toBe('cost_limit');
    expect(result.error).toMatch(/no price is known for model "mystery-model"/);
    expect(server.requests.length).toBe(0);
  });

  it('uses a price passed in for a model the table lacks', async () => {
    const { result } = await runScenario([calc, { text: 'x' }], { model: 'mystery-model', maxCost: 0.01, price: { input: 1, cachedInput: 1, output: 1 }, toolList: [calculatorTool] });
    expect(result.stopReason).toBe('cost_limit');
    expect(result.cost).toBeCloseTo(0.11, 10);
  });

  it('estimates usage (and marks it) when the server reports none, so the brake still works', async () => {
    const chunk = (delta: unknown, finish: string | null = null) => ({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] });
    const text = 'word '.repeat(400);
    const { events, result } = await runScenario([{ kind: 'raw_chunks', chunks: [chunk({ content: text }), chunk({}, 'stop')] }], { model: 'gpt-4o' });
    const [event] = ofType(events, 'usage');
    expect(event!.usage.estimated).toBe(true);
    expect(event!.usage.outputTokens).toBe(Math.ceil(text.length / 4));
    expect(event!.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.estimated).toBe(true);
    expect(result.cost).toBeGreaterThan(0);
  });
});
