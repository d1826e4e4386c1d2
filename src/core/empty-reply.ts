import type { ModelResponse } from '../contracts/provider.js';

/**
 * Why a reply with neither text nor tool calls is not an answer, or undefined when it is one.
 * Reasoning models can spend the whole output limit thinking, filters can blank a reply, and
 * some servers end a turn with nothing after a tool result: reporting any of these as a
 * successful empty answer would hide the failure from the user and from scripts.
 */
export function emptyReplyError(response: ModelResponse, provider: string): string | undefined {
  const { message, finishReason } = response;
  if (message.toolCalls.length > 0 || message.content.trim() !== '') return undefined;
  const thought = message.reasoning?.trim() ? ' (it only reasoned)' : '';
  if (finishReason === 'length') return `${provider}: the reply hit the output token limit before any answer was written${thought}; raise the limit or ask for less.`;
  if (finishReason === 'content_filter') return `${provider}: the reply was blocked by the provider's content filter; no answer was given.`;
  return `${provider}: the model returned an empty reply, with no text and no tool calls${thought}.`;
}
