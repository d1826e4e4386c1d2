import { catalogEntry, catalogLoaded } from '../providers/shared/model-catalog.js';

/**
 * Context windows (prompt + reply, in tokens) of common models, matched by the longest prefix
 * of the model name (after any "vendor/" part, as OpenRouter spells them): the fallback for the
 * model catalog (src/providers/shared/model-catalog.ts), which is not loaded before a run's first
 * request. Local servers are different: their window is whatever the server was started with,
 * so local providers get a small default unless told otherwise.
 */
const WINDOWS: ReadonlyArray<readonly [prefix: string, tokens: number]> = [
  ['gpt-4o', 128_000],
  ['gpt-4.1', 1_047_576],
  ['gpt-4-turbo', 128_000],
  ['gpt-4', 8_192],
  ['gpt-3.5-turbo', 16_385],
  ['gpt-5', 400_000],
  ['gpt-oss', 131_072],
  ['o1', 200_000],
  ['o3', 200_000],
  ['o4-mini', 200_000],
  ['claude', 200_000],
  ['gemini-1.5-pro', 2_097_152],
  ['gemini-1.5', 1_048_576],
  ['gemini-2', 1_048_576],
  ['gemini', 1_048_576],
  ['deepseek', 128_000],
  ['qwen-plus', 131_072],
  ['qwen-max', 32_768],
  ['qwen-turbo', 1_000_000],
  ['qwen3-coder', 262_144],
  ['qwen', 131_072],
  ['kimi-k2', 262_144],
  ['moonshot-v1-8k', 8_192],
  ['moonshot-v1-32k', 32_768],
  ['moonshot-v1-128k', 131_072],
  ['glm-4.6', 200_000],
  ['glm-4.5', 131_072],
  ['glm-4', 128_000],
  ['llama-3', 131_072],
  ['llama3', 131_072],
  ['mistral-large', 131_072],
  ['codestral', 262_144],
  ['grok-4', 256_000],
  ['grok', 131_072],
];

/** Ollama's default num_ctx is smaller than any model's real window; vLLM and LM Studio vary. */
export const LOCAL_DEFAULT_WINDOW = 8_192;
/** For a model nobody listed: small enough to be safe on most hosted models. */
export const UNKNOWN_MODEL_WINDOW = 32_768;

const LOCAL_PROVIDERS = new Set(['ollama', 'vllm', 'lmstudio']);

export interface WindowQuery {
  model: string;
  /** The provider's name (e.g. "ollama"): local servers get LOCAL_DEFAULT_WINDOW. */
  provider?: string;
  /** The user's setting (`contextWindow`, `--context-window`): always wins. */
  override?: number;
}

export function contextWindowFor(query: WindowQuery): number {
  if (query.override !== undefined) {
    if (!Number.isInteger(query.override) || query.override < 1024) {
      throw new Error(`contextWindow must be a whole number of tokens, at least 1024; got ${query.override}.`);
    }
    return query.override;
  }
  // A wrapper names itself after what it wraps ("ollama+prompt-json"): the server is still Ollama.
  const server = query.provider?.split('+')[0];
  if (server && LOCAL_PROVIDERS.has(server)) return LOCAL_DEFAULT_WINDOW;
  return knownWindow(query.model) ?? UNKNOWN_MODEL_WINDOW;
}

/**
 * The model's window: the catalog's once it is loaded (a price look-up loads it, after the first
 * reply), else this table's; undefined when neither knows the model.
 */
export function knownWindow(model: string): number | undefined {
  const listed = catalogLoaded() ? catalogEntry(model)?.contextWindow : undefined;
  return listed ?? tableWindow(model);
}

/** The table's window for a model name, or undefined. */
function tableWindow(model: string): number | undefined {
  const name = model.toLowerCase().split('/').pop() ?? '';
  let best: readonly [string, number] | undefined;
  for (const entry of WINDOWS) {
    if (name.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best?.[1];
}
