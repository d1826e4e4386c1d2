import { createHash } from 'node:crypto';
import type { Message } from '../../contracts/messages.js';

/** How long OpenAI keeps a cached prefix: in memory (minutes) or up to a day ("24h"). */
export type PromptCacheRetention = 'in-memory' | '24h';

/**
 * What an OpenAI-compatible request may carry to help the endpoint's prompt cache. OpenAI routes
 * requests by `prompt_cache_key` and the prompt's start, so a key shared by one conversation's
 * requests keeps them on the machine that holds its prefix.
 */
export interface PromptCacheOptions {
  /**
   * Send `prompt_cache_key`: a fixed string, or true for one derived from the conversation's
   * first messages (the system prompt and first user message never change within a session, so
   * the key is the same for every request of it, across a resume too); false: never.
   */
  key: string | boolean;
  /** Send `prompt_cache_retention: "24h"` for the models that take it; false: never. */
  extendedRetention: boolean;
}

/** Models OpenAI documents extended (24h) retention for: GPT-4.1 and GPT-5 and later. */
const EXTENDED_RETENTION = /^(?:gpt-4\.1|gpt-5)/;

export function promptCacheFields(messages: Message[], model: string, options: PromptCacheOptions): { prompt_cache_key?: string; prompt_cache_retention?: PromptCacheRetention } {
  const fields: { prompt_cache_key?: string; prompt_cache_retention?: PromptCacheRetention } = {};
  if (typeof options.key === 'string' && options.key) fields.prompt_cache_key = options.key;
  else if (options.key === true) fields.prompt_cache_key = conversationKey(messages);
  if (options.extendedRetention && EXTENDED_RETENTION.test(model.toLowerCase().replace(/^.*\//, ''))) fields.prompt_cache_retention = '24h';
  return fields;
}

/** A stable key for one conversation: a hash of its system prompt and first user message. */
export function conversationKey(messages: Message[]): string {
  const system = messages.find((message) => message.role === 'system')?.content ?? '';
  const first = messages.find((message) => message.role === 'user')?.content ?? '';
  return `vibe-${createHash('sha256').update(system).update('\0').update(first).digest('hex').slice(0, 32)}`;
}
