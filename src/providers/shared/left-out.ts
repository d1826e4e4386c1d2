import type { Message, ProviderData } from '../../contracts/messages.js';
import type { LeftOut, ReplyOrigin } from '../../contracts/provider.js';

/**
 * What a request leaves out of the history: the provider-specific parts of each earlier reply
 * whose providerData `replays` refuses (made by another provider, model or wire), counted by
 * part and maker. Each provider passes the same test its converter uses, so what is reported is
 * what was not sent; the request itself is not touched.
 */
export function leftOutOf(messages: readonly Message[], to: ReplyOrigin, replays: (data: ProviderData) => boolean): LeftOut[] | undefined {
  const found = new Map<string, LeftOut>();
  for (const message of messages) {
    if (message.role !== 'assistant' || !message.providerData || replays(message.providerData)) continue;
    const { wire, parts } = describeProviderData(message.providerData);
    const from: ReplyOrigin = { provider: message.providerData.provider, model: message.providerData.model, ...(wire ? { wire } : {}) };
    for (const part of parts) {
      const key = JSON.stringify([part, from.provider, from.model, from.wire]);
      const entry = found.get(key);
      if (entry) entry.turns++;
      else found.set(key, { part, from, to, turns: 1 });
    }
  }
  return found.size ? [...found.values()] : undefined;
}

/**
 * Which wire made a reply's providerData and which parts it holds, read from the keys each
 * provider keeps them under (as saved in session files): Responses `responsesReasoning` items,
 * Chat `reasoning_content`/`reasoning` text, Anthropic `thinking` blocks and its server-tool
 * `content`, Gemini `parts` with thoughts or signatures.
 */
export function describeProviderData(data: ProviderData): { wire?: string; parts: Array<LeftOut['part']> } {
  const parts = new Set<LeftOut['part']>();
  let wire: string | undefined;
  if (Array.isArray(data.responsesReasoning)) {
    wire = 'responses';
    for (const item of data.responsesReasoning as Array<{ type?: unknown }>) {
      if (item?.type === 'reasoning') parts.add('reasoning');
      if (item?.type === 'web_search_call') parts.add('web_search');
    }
  }
  if (typeof data.reasoning_content === 'string' || typeof data.reasoning === 'string') {
    wire = 'chat';
    parts.add('reasoning');
  }
  if (Array.isArray(data.thinking) && data.thinking.length) parts.add('reasoning');
  if (Array.isArray(data.content) && (data.content as Array<{ type?: unknown }>).some((block) => block?.type === 'server_tool_use' || block?.type === 'web_search_tool_result')) parts.add('web_search');
  if (Array.isArray(data.parts) && (data.parts as Array<{ thought?: unknown; thoughtSignature?: unknown }>).some((part) => part?.thought || part?.thoughtSignature)) parts.add('reasoning');
  return { ...(wire ? { wire } : {}), parts: [...parts] };
}
