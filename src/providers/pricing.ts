import type { Usage } from '../contracts/messages.js';

/** US dollars per one million tokens. */
export interface ModelPrice {
  input: number;
  /** Input tokens served from the provider's prompt cache. */
  cachedInput: number;
  /** Includes reasoning/thinking tokens, which every vendor bills as output. */
  output: number;
}

/**
 * List prices for the standard tier, per 1M tokens, as the vendors published them (checked
 * 2025-11; they change, so treat costs as estimates). Long-context tiers (Gemini 2.5 Pro over
 * 200k tokens, Claude over 200k) and cache-write surcharges are not modelled.
 */
export const PRICES_CHECKED = '2025-11';

export const PRICES: Readonly<Record<string, ModelPrice>> = {
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
  'gpt-5-nano': { input: 0.05, cachedInput: 0.005, output: 0.4 },
  'gpt-5.1': { input: 1.25, cachedInput: 0.125, output: 10 },
  o3: { input: 2, cachedInput: 0.5, output: 8 },
  'o3-mini': { input: 1.1, cachedInput: 0.55, output: 4.4 },
  'o3-pro': { input: 20, cachedInput: 20, output: 80 },
  'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4 },
  'claude-opus-4': { input: 15, cachedInput: 1.5, output: 75 },
  'claude-opus-4-1': { input: 15, cachedInput: 1.5, output: 75 },
  'claude-opus-4-5': { input: 5, cachedInput: 0.5, output: 25 },
  'claude-sonnet-4': { input: 3, cachedInput: 0.3, output: 15 },
  'claude-sonnet-4-5': { input: 3, cachedInput: 0.3, output: 15 },
  'claude-haiku-4-5': { input: 1, cachedInput: 0.1, output: 5 },
  'gemini-2.5-pro': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gemini-2.5-flash': { input: 0.3, cachedInput: 0.03, output: 2.5 },
  'gemini-2.5-flash-lite': { input: 0.1, cachedInput: 0.01, output: 0.4 },
  'deepseek-chat': { input: 0.28, cachedInput: 0.028, output: 0.42 },
  'deepseek-reasoner': { input: 0.28, cachedInput: 0.028, output: 0.42 },
  'qwen-plus': { input: 0.4, cachedInput: 0.08, output: 1.2 },
  'kimi-k2': { input: 0.6, cachedInput: 0.15, output: 2.5 },
  'glm-4.6': { input: 0.6, cachedInput: 0.11, output: 2.2 },
};

/**
 * The price of a model, matching dated and routed names to the family: "gpt-4o-2024-08-06",
 * "openai/gpt-4o", "models/gemini-2.5-pro" and "claude-sonnet-4-5-20250929" all find their
 * entry. The longest matching name wins, so "gpt-4o-mini" is never priced as "gpt-4o".
 */
export function priceOf(model: string, table: Readonly<Record<string, ModelPrice>> = PRICES): ModelPrice | undefined {
  const name = model.toLowerCase().replace(/^.*\//, '');
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    const matches = name === key || (name.startsWith(key) && /^[-@:]/.test(name.slice(key.length)));
    if (matches && (!best || key.length > best.length)) best = key;
  }
  return best ? table[best] : undefined;
}

/**
 * What a usage cost in US dollars, or undefined for a model without a known price.
 * `inputTokens` includes the cached part (as OpenAI and Gemini report it).
 */
export function costOf(model: string, usage: Usage, price: ModelPrice | undefined = priceOf(model)): number | undefined {
  if (!price) return undefined;
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
  return ((usage.inputTokens - cached) * price.input + cached * price.cachedInput + usage.outputTokens * price.output) / 1_000_000;
}
