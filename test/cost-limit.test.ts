import { afterEach, describe, expect, it } from 'vitest';
import { calculatorTool } from '../src/tools/builtin/calculator.js';
import { costOf, priceOf, setModelPrices } from '../src/providers/pricing.js';
import { ofType, runScenario } from './support/harness.js';

const usage = (inputTokens: number, outputTokens: number, cachedInputTokens = 0) => ({ inputTokens, outputTokens, cachedInputTokens, cacheWriteTokens: 0, reasoningTokens: 0 });
const calc = { toolCalls: [{ name: 'calculator', arguments: { expression: '1+1' } }], usage: { inputTokens: 100_000, outputTokens: 10_000 } };

describe('prices', () => {
  afterEach(() => setModelPrices({}));

  it('come from the model catalog, finding a model from dated, routed and prefixed names', () => {
    const gpt4o = priceOf('gpt-4o')!;
    expect(gpt4o).toMatchObject({ input: 2.5, cachedInput: 1.25, output: 10 });
    expect(priceOf('gpt-4o-2024-08-06')).toEqual(gpt4o);
    expect(priceOf('openai/gpt-4o')).toEqual(gpt4o);
    expect(priceOf('gpt-4o-mini')!.input).toBeLessThan(gpt4o.input);
    expect(priceOf('models/gemini-2.5-pro')).toEqual(priceOf('gemini-2.5-pro'));
    expect(priceOf('claude-sonnet-4-5-20250929')).toMatchObject({ input: 3, cachedInput: 0.3, output: 15, cacheWrite: 3.75, cacheWrite1h: 6 });
    expect(priceOf('deepseek-chat')).toBeDefined();
    expect(priceOf('glm-4.7')).toBeDefined();
    expect(priceOf('kimi-k2-0905-preview')).toBeDefined();
    expect(priceOf('llama3.1:8b')).toBeUndefined();
  });

  it('take a configured price over the catalog, and for a model it lacks', () => {
    setModelPrices({ 'gpt-4o': { input: 1, output: 2 }, 'my-local-model': { input: 0.5, output: 1, cachedInput: 0.05 } });
    expect(priceOf('gpt-4o-2024-08-06')).toEqual({ input: 1, output: 2, cachedInput: 1 });
    expect(priceOf('my-local-model')).toEqual({ input: 0.5, output: 1, cachedInput: 0.05 });
    expect(costOf('my-local-model', usage(1_000_000, 0))).toBeCloseTo(0.5, 10);
  });

  it('charges cached input at the cached rate and is undefined for an unknown model', () => {
    // gpt-4o: $2.50 in, $1.25 cached, $10 out per 1M.
    expect(costOf('gpt-4o', usage(1_000_000, 100_000, 400_000))).toBeCloseTo(0.6 * 2.5 + 0.4 * 1.25 + 0.1 * 10, 10);
    expect(costOf('my-local-model', usage(10, 10))).toBeUndefined();
  });

  it('charges cache writes with their surcharge: 1.25× for five minutes, 2× for an hour, and reads at the cached price', () => {
    const price = { input: 3, cachedInput: 0.3, output: 15 };
    // 1M prompt: 500k read, 300k written (100k of them for an hour), 200k plain; no output.
    const written = { inputTokens: 1_000_000, outputTokens: 0, cachedInputTokens: 500_000, cacheWriteTokens: 300_000, cacheWrite1hTokens: 100_000, reasoningTokens: 0 };
    expect(costOf('any', written, price)).toBeCloseTo(0.2 * 3 + 0.5 * 0.3 + 0.2 * 3 * 1.25 + 0.1 * 3 * 2, 10);
    // The catalog's own write prices, where it lists them.
    expect(costOf('claude-sonnet-4-5', written)).toBeCloseTo(0.2 * 3 + 0.5 * 0.3 + 0.2 * 3.75 + 0.1 * 6, 10);
    // Figures that do not add up never bill more than the prompt.
    expect(costOf('any', { ...written, cacheWriteTokens: 5_000_000, cacheWrite1hTokens: 9_000_000 }, price)).toBeCloseTo(0.5 * 0.3 + 0.5 * 3 * 2, 10);
  });
});

describe('the cost brake', () => {
  it('stops with cost_limit before the request after the one that passed the limit, with the cost on the stop event', async () => {
    const { result, events, server } = await runScenario([calc, calc, calc, { text: 'never reached' }], { model: 'gpt-4o', maxCost: 0.5, toolList: [calculatorTool] });
    // Each reply costs 0.1M × $2.50 + 0.01M × $10 = $0.35: the $0.50 limit is reached after the second.
    expect(server.requests.length).toBe(2);
    expect(result.stopReason).toBe('cost_limit');
    expect(result.cost).toBeCloseTo(0.7, 10);
    const stop = ofType(events, 'stop')[0]!;
    expect(stop.cost).toBeCloseTo(0.7, 10);
    expect(stop.error).toBe('spent $0.7000 of the $0.5 limit');
    // The calls of the last reply were answered, so the history can be resumed.
    expect(result.messages.at(-1)).toMatchObject({ role: 'tool', content: '1+1 = 2' });
  });

  it('stops once spent reaches the limit exactly (the one boundary rule, as the tree budget keeps it)', async () => {
    const { result, server } = await runScenario([calc, calc, calc, { text: 'never reached' }], { model: 'gpt-4o', maxCost: 0.7, toolList: [calculatorTool] });
    expect(server.requests.length).toBe(2);
    expect(result.stopReason).toBe('cost_limit');
    expect(result.error).toBe('spent $0.7000 of the $0.7 limit');
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
