import { isInstance } from '../../contracts/lazy-module.js';
import { openaiSdk } from './sdk.js';

/**
 * Request fields we send that an endpoint may do without. Compatible servers (older vLLM, some
 * gateways, reasoning models for `temperature`) answer 400 for a field they do not know; the
 * request then goes again without it, and the provider instance remembers.
 */
export const OPTIONAL_PARAMETERS = ['stream_options', 'parallel_tool_calls', 'temperature'] as const;
/** Prompt-cache fields, sent only to endpoints whose preset says they take them (doctor does not probe these). */
export const CACHE_PARAMETERS = ['prompt_cache_key', 'prompt_cache_retention'] as const;
const DROPPABLE: readonly string[] = [...OPTIONAL_PARAMETERS, ...CACHE_PARAMETERS];

const REJECTION = /unknown|unsupported|unrecogni[sz]ed|not supported|does not support|not allowed|not permitted|extra (?:fields|inputs|parameters)|additional propert/i;

/** The optional field a 400/422 names as unknown or unsupported, if it is one we sent. */
export function unsupportedParameter(error: unknown, sent: readonly string[]): string | undefined {
  if (!isInstance(error, openaiSdk.loaded()?.APIError) || (error.status !== 400 && error.status !== 422)) return undefined;
  const text = `${error.message} ${JSON.stringify(error.error ?? '')}`;
  if (!REJECTION.test(text)) return undefined;
  return DROPPABLE.find((name) => sent.includes(name) && new RegExp(`\\b${name}\\b`).test(text));
}

/** The body without the fields this endpoint refused before. */
export function withoutParameters<T extends object>(body: T, refused: ReadonlySet<string>): T {
  if (refused.size === 0) return body;
  return Object.fromEntries(Object.entries(body).filter(([key]) => !refused.has(key))) as T;
}
