import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { Usage } from '../../contracts/messages.js';

/** The usage fields the Chat Completions dialects put beside OpenAI's own. */
interface WireUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null; cache_creation_input_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
  /** DeepSeek: the cached and uncached parts of prompt_tokens. */
  prompt_cache_hit_tokens?: number | null;
  prompt_cache_miss_tokens?: number | null;
  /** Moonshot (Kimi), older API: cached prompt tokens at the top level. */
  cached_tokens?: number | null;
}

/**
 * A Chat Completions usage to ours. `prompt_tokens` is the whole prompt on every dialect; the
 * cached part is `prompt_tokens_details.cached_tokens` (OpenAI, Qwen, GLM, Kimi, newer DeepSeek),
 * `prompt_cache_hit_tokens` (DeepSeek) or a top-level `cached_tokens` (older Kimi). Qwen's
 * explicit cache reports its writes as `prompt_tokens_details.cache_creation_input_tokens`.
 */
export function readUsage(raw: NonNullable<ChatCompletionChunk['usage']>): Usage {
  const wire = raw as WireUsage;
  const details = wire.prompt_tokens_details ?? undefined;
  const hit = wire.prompt_cache_hit_tokens ?? undefined;
  const miss = wire.prompt_cache_miss_tokens ?? undefined;
  const input = wire.prompt_tokens ?? (hit !== undefined && miss !== undefined ? hit + miss : 0);
  const cached = details?.cached_tokens ?? hit ?? wire.cached_tokens ?? 0;
  const written = details?.cache_creation_input_tokens ?? 0;
  return {
    inputTokens: input,
    outputTokens: wire.completion_tokens ?? 0,
    cachedInputTokens: Math.min(cached, input),
    cacheWriteTokens: Math.min(written, Math.max(0, input - cached)),
    reasoningTokens: wire.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}
