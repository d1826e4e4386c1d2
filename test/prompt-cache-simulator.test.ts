/** bench/prompt-cache.mjs: the billing rules the test servers and the bench share. */
import { describe, expect, it } from 'vitest';
import { billSession, dollarsOf, PromptCacheSimulator } from '../bench/prompt-cache.mjs';

const long = (label: string, tokens: number) => `${label} ${'x'.repeat(tokens * 4)}`;
const marked = (text: string, ttl?: '5m' | '1h') => ({ type: 'text', text, cache_control: { type: 'ephemeral', ...(ttl ? { ttl } : {}) } });
const MINUTE = 60_000;

function clocked() {
  let now = 0;
  const simulator = new PromptCacheSimulator({ now: () => now });
  return { simulator, advance: (ms: number) => (now += ms) };
}

function usage(outcome: ReturnType<PromptCacheSimulator['bill']>) {
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.usage;
}

describe('Anthropic billing', () => {
  const system = [marked(long('system', 2000))];

  it('finds an earlier breakpoint within 20 blocks before a new one, not beyond', () => {
    const { simulator } = clocked();
    const first = [{ role: 'user', content: [marked('start')] }];
    usage(simulator.anthropic({ model: 'claude-sonnet-4-5', system, messages: first }));
    // 10 more turns (20 blocks) after the old breakpoint: still found.
    const near = [...first.map((m) => ({ ...m, content: [{ type: 'text', text: 'start' }] }))];
    for (let i = 0; i < 10; i++) near.push({ role: 'assistant', content: [{ type: 'text', text: `a${i}` }] }, { role: 'user', content: [{ type: 'text', text: `u${i}` }] });
    near[near.length - 1] = { role: 'user', content: [marked('u9')] };
    const hit = usage(simulator.anthropic({ model: 'claude-sonnet-4-5', system, messages: near }));
    const firstEnd = usage(new PromptCacheSimulator().anthropic({ model: 'claude-sonnet-4-5', system, messages: first })).inputTokens;
    expect(hit.cachedInputTokens).toBe(firstEnd);
    // One turn further (22 blocks): only the system prompt's entry is in reach.
    const far = [...near.slice(0, -1), { role: 'user', content: [{ type: 'text', text: 'u9' }] }, { role: 'assistant', content: [{ type: 'text', text: 'a10' }] }, { role: 'user', content: [marked('u10')] }];
    const { simulator: fresh } = clocked();
    usage(fresh.anthropic({ model: 'claude-sonnet-4-5', system, messages: first }));
    const miss = usage(fresh.anthropic({ model: 'claude-sonnet-4-5', system, messages: far }));
    expect(miss.cachedInputTokens).toBeLessThan(firstEnd);
    expect(miss.cachedInputTokens).toBeGreaterThan(2000);
  });

  it('expires five-minute entries after five idle minutes and one-hour entries after an hour; a read refreshes', () => {
    const { simulator, advance } = clocked();
    const body = (ttl?: '1h') => ({ model: 'claude-sonnet-4-5', system: [marked(long('system', 2000), ttl)], messages: [{ role: 'user', content: 'hi' }] });
    expect(usage(simulator.anthropic(body())).cacheWriteTokens).toBeGreaterThan(2000);
    advance(4 * MINUTE);
    expect(usage(simulator.anthropic(body())).cachedInputTokens).toBeGreaterThan(2000);
    advance(4 * MINUTE); // 8 minutes after the write, 4 after the read
    expect(usage(simulator.anthropic(body())).cachedInputTokens).toBeGreaterThan(2000);
    advance(6 * MINUTE);
    expect(usage(simulator.anthropic(body())).cachedInputTokens).toBe(0);
    const hour = clocked();
    const written = usage(hour.simulator.anthropic(body('1h')));
    expect(written.cacheWrite1hTokens).toBe(written.cacheWriteTokens);
    expect(written.cacheWriteTokens).toBeGreaterThan(2000);
    hour.advance(50 * MINUTE);
    expect(usage(hour.simulator.anthropic(body('1h'))).cachedInputTokens).toBe(written.cacheWriteTokens);
    hour.advance(61 * MINUTE);
    expect(usage(hour.simulator.anthropic(body('1h'))).cachedInputTokens).toBe(0);
  });

  it('never caches a prefix under the model minimum', () => {
    const small = { system: [marked(long('system', 1500))], messages: [{ role: 'user', content: 'hi' }] };
    expect(usage(new PromptCacheSimulator().anthropic({ model: 'claude-sonnet-4-5', ...small })).cacheWriteTokens).toBeGreaterThan(0);
    expect(usage(new PromptCacheSimulator().anthropic({ model: 'claude-haiku-4-5', ...small })).cacheWriteTokens).toBe(0);
    expect(usage(new PromptCacheSimulator().anthropic({ model: 'claude-opus-5', system: [marked(long('s', 600))], messages: [{ role: 'user', content: 'hi' }] })).cacheWriteTokens).toBeGreaterThan(0);
  });
});

describe('prefix caches', () => {
  const messages = (n: number) => [{ role: 'system', content: long('system', 3000) }, ...Array.from({ length: n }, (_, i) => ({ role: 'user', content: `q${i} ${'y'.repeat(300)}` }))];

  it('OpenAI: nothing under 1,024 shared tokens, then steps of 128; another prompt_cache_key is another machine', () => {
    const { simulator } = clocked();
    expect(usage(simulator.openai({ model: 'gpt-5', prompt_cache_key: 'a', messages: messages(1) })).cachedInputTokens).toBe(0);
    const second = usage(simulator.openai({ model: 'gpt-5', prompt_cache_key: 'a', messages: messages(2) }));
    expect(second.cachedInputTokens).toBeGreaterThanOrEqual(3000);
    expect((second.cachedInputTokens - 1024) % 128).toBe(0);
    expect(usage(simulator.openai({ model: 'gpt-5', prompt_cache_key: 'b', messages: messages(2) })).cachedInputTokens).toBe(0);
    const short = [{ role: 'user', content: 'z'.repeat(3000) }];
    usage(simulator.openai({ model: 'gpt-5', messages: short }));
    expect(usage(simulator.openai({ model: 'gpt-5', messages: [...short, { role: 'user', content: 'more' }] })).cachedInputTokens).toBe(0);
  });

  it('OpenAI: in-memory entries go after five idle minutes, 24h ones stay', () => {
    const { simulator, advance } = clocked();
    for (const retention of [undefined, '24h']) {
      const body = (n: number) => ({ model: 'gpt-5', prompt_cache_key: String(retention), ...(retention ? { prompt_cache_retention: retention } : {}), messages: messages(n) });
      usage(simulator.openai(body(1)));
      advance(30 * MINUTE);
      const later = usage(simulator.openai(body(2))).cachedInputTokens;
      if (retention) expect(later).toBeGreaterThan(1024);
      else expect(later).toBe(0);
    }
  });

  it('DeepSeek reports hits in 64-token units, in its own fields', () => {
    const { simulator } = clocked();
    simulator.deepseek({ model: 'deepseek-chat', messages: messages(1) });
    const outcome = simulator.deepseek({ model: 'deepseek-chat', messages: messages(2) });
    if (!outcome.ok) throw new Error(outcome.message);
    expect(outcome.wire.prompt_cache_hit_tokens).toBe(outcome.usage.cachedInputTokens);
    expect(outcome.wire.prompt_cache_miss_tokens).toBe(outcome.usage.inputTokens - outcome.usage.cachedInputTokens);
    expect(outcome.usage.cachedInputTokens % 64).toBe(0);
  });
});

describe('billSession', () => {
  it('bills a logged session at its recorded times, with the read share and the dollars', () => {
    const system = [marked(long('system', 4000))];
    const turn = (n: number) => ({ model: 'claude-sonnet-4-5', system, messages: Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `m${i}` })) });
    const bill = billSession(
      [
        { provider: 'anthropic', body: turn(1), at: 0, outputTokens: 100 },
        { provider: 'anthropic', body: turn(3), at: MINUTE, outputTokens: 100 },
        { provider: 'anthropic', body: turn(5), at: 20 * MINUTE, outputTokens: 100 },
      ],
      { price: { input: 3, output: 15 } },
    );
    expect(bill.outcomes.map((outcome) => outcome.ok && outcome.usage.cachedInputTokens > 0)).toEqual([false, true, false]);
    expect(bill.readShare).toBeGreaterThan(0.3);
    expect(bill.readShare).toBeLessThan(0.4);
    expect(bill.dollars).toBeCloseTo(dollarsOf(bill.totals, { input: 3, output: 15 }), 12);
    // Two writes at 1.25×, one read at 0.1×.
    const writes = bill.totals.cacheWriteTokens;
    expect(writes).toBeGreaterThan(8000);
    expect(bill.dollars).toBeCloseTo((writes * 3 * 1.25 + bill.totals.cachedInputTokens * 0.3 + (bill.totals.inputTokens - writes - bill.totals.cachedInputTokens) * 3 + 300 * 15) / 1e6, 12);
  });

  it('counts a refused request and bills nothing for it', () => {
    const five = Array.from({ length: 5 }, (_, i) => marked(`b${i}`));
    const bill = billSession([{ provider: 'anthropic', body: { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: five }] } }]);
    expect(bill.totals).toMatchObject({ requests: 1, refused: 1, inputTokens: 0 });
    expect(bill.outcomes[0]).toMatchObject({ ok: false, status: 400 });
  });
});
