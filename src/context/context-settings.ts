import { contextWindowFor } from './model-windows.js';

/** The numbers the policy works with, all derived from the model's window unless set. */
export interface ContextSettings {
  window: number;
  /** Tokens left free for the reply. */
  replyReserve: number;
  /** The largest prompt we send: window minus reply reserve. */
  inputBudget: number;
  /** Compact when the estimated prompt passes this many tokens. */
  compactAt: number;
  /** Longest tool result kept in the history; longer ones keep head and tail. */
  maxToolResultChars: number;
  /** Tokens of tool output kept whole at a rewrite point, newest first (the low-water mark); older outputs become stubs. */
  keepToolOutputTokens: number;
  /** Tokens of the newest turns a compaction keeps whole. */
  keepRecentTokens: number;
  summaryMaxTokens: number;
}

export interface ContextSettingsInput {
  model: string;
  provider?: string;
  contextWindow?: number;
  replyReserve?: number;
  /** Fraction of the input budget at which to compact (default 0.8). */
  compactAtFraction?: number;
  maxToolResultChars?: number;
  keepToolOutputTokens?: number;
  keepRecentTokens?: number;
  summaryMaxTokens?: number;
}

export function contextSettings(input: ContextSettingsInput): ContextSettings {
  const window = contextWindowFor({ model: input.model, ...(input.provider ? { provider: input.provider } : {}), ...(input.contextWindow !== undefined ? { override: input.contextWindow } : {}) });
  const replyReserve = input.replyReserve ?? Math.min(8_192, Math.floor(window * 0.2));
  const inputBudget = window - replyReserve;
  const fraction = input.compactAtFraction ?? 0.8;
  if (!(fraction > 0 && fraction <= 1)) throw new Error(`compactAtFraction must be above 0 and at most 1, got ${fraction}.`);
  return {
    window,
    replyReserve,
    inputBudget,
    compactAt: Math.floor(inputBudget * fraction),
    maxToolResultChars: input.maxToolResultChars ?? clamp(Math.floor(inputBudget * 0.4), 2_000, 12_000),
    // Low, so that a rewrite point (one cache miss over what it keeps) is cheap and the next one far away.
    keepToolOutputTokens: input.keepToolOutputTokens ?? Math.min(16_000, Math.floor(inputBudget * 0.1)),
    keepRecentTokens: input.keepRecentTokens ?? Math.min(60_000, Math.floor(inputBudget * 0.35)),
    summaryMaxTokens: input.summaryMaxTokens ?? Math.min(4_096, Math.floor(inputBudget * 0.1)),
  };
}

function clamp(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(max, value));
}
