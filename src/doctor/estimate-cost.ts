import { costOf, priceOf } from '../providers/pricing.js';
import { knownWindow } from '../context/model-windows.js';
import { BISECTION_STEPS, contextSizes } from './probe-context.js';
import type { DoctorEndpoint } from './types.js';

/** The small probes: about ten requests of a few dozen tokens each, with their replies. */
const SMALL_PROBES_INPUT = 2_000;
const SMALL_PROBES_OUTPUT = 1_000;

export interface CostEstimate {
  inputTokens: number;
  outputTokens: number;
  /** US dollars at list price, or undefined for a model without a known price. */
  dollars: number | undefined;
}

/** What the battery will send, worked out before anything is sent (the context ladder dominates). */
export function estimateCost(endpoint: DoctorEndpoint): CostEstimate {
  const ladder = contextSizes(endpoint, knownWindow(endpoint.model));
  // At worst the last step is lost and every bisection request is nearly as long as it.
  const bisection = BISECTION_STEPS * (ladder.at(-1) ?? 0);
  const inputTokens = SMALL_PROBES_INPUT + (endpoint.protocol === 'openai' ? ladder.reduce((sum, size) => sum + size, 0) + bisection : 0);
  const outputTokens = SMALL_PROBES_OUTPUT;
  const price = priceOf(endpoint.model);
  return { inputTokens, outputTokens, dollars: price ? costOf(endpoint.model, { inputTokens, outputTokens, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }, price) : undefined };
}

export function describeEstimate(endpoint: DoctorEndpoint, estimate: CostEstimate): string {
  const money = estimate.dollars !== undefined ? `≈ $${estimate.dollars.toFixed(4)} at list price` : 'price unknown for this model';
  return `doctor will send ≈${estimate.inputTokens.toLocaleString('en')} input tokens and ask for ≈${estimate.outputTokens.toLocaleString('en')} output tokens to ${endpoint.provider} (${endpoint.model}), ${money}.`;
}
