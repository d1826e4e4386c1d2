/** Types for prompt-cache.mjs (a plain-JS module the bench runs without a build). */
export type CacheProvider = 'anthropic' | 'openai' | 'deepseek' | 'gemini';
export interface CacheUsage {
  inputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  cacheWrite1hTokens: number;
}
export type CacheOutcome = { ok: true; wire: Record<string, unknown>; usage: CacheUsage } | { ok: false; status: number; type: string; message: string };
export interface CachePrice {
  input: number;
  cachedInput?: number;
  output?: number;
  cacheWrite5m?: number;
  cacheWrite1h?: number;
}
export interface SessionTotals extends CacheUsage {
  requests: number;
  refused: number;
  outputTokens: number;
}

export const MAX_BREAKPOINTS: number;
export const LOOKBACK_BLOCKS: number;
export const WRITE_MULTIPLIER: { '5m': number; '1h': number };
export const READ_MULTIPLIER: number;
export function tokensOf(value: unknown): number;
export function anthropicMinimum(model: string): number;
export function geminiMinimum(model: string): number | undefined;
export function anthropicCacheProblems(body: Record<string, unknown>): string[];
export class PromptCacheSimulator {
  constructor(options?: { now?: () => number });
  bill(provider: CacheProvider, body: Record<string, unknown>): CacheOutcome;
  anthropic(body: Record<string, unknown>): CacheOutcome;
  openai(body: Record<string, unknown>): CacheOutcome;
  deepseek(body: Record<string, unknown>): CacheOutcome;
  gemini(body: Record<string, unknown>): CacheOutcome;
}
export function billSession(
  requests: Array<{ provider: CacheProvider; body: Record<string, unknown>; at?: number; outputTokens?: number }>,
  options?: { price?: CachePrice },
): { outcomes: CacheOutcome[]; totals: SessionTotals; readShare: number; dollars: number | undefined };
export function dollarsOf(totals: Omit<SessionTotals, 'requests' | 'refused'>, price: CachePrice): number;
