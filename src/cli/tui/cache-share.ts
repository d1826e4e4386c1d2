import type { Usage } from '../../contracts/messages.js';

/**
 * The share of input tokens read from the provider's prompt cache, e.g. "93%"; undefined while
 * nothing was read or written (a server without a prompt cache, or nothing sent yet).
 */
export function cacheShare(usage: Usage): string | undefined {
  if (usage.inputTokens <= 0 || usage.cachedInputTokens + usage.cacheWriteTokens <= 0) return undefined;
  return `${Math.round((usage.cachedInputTokens / usage.inputTokens) * 100)}%`;
}
