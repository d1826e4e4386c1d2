import type { AssistantMessage, ProviderData } from '../../contracts/messages.js';

/** A reasoning item as it must go back on the next request when nothing is stored server-side. */
export interface ReasoningItem {
  type: 'reasoning';
  id: string;
  summary: Array<{ type: 'summary_text'; text: string }>;
  encrypted_content?: string;
}

/**
 * A web search the server ran (`web_search_call`), kept as received: with `store: false` it goes
 * back as an input item, in its place among the turn's reasoning items (a reasoning item must be
 * followed by the item that came after it).
 */
export type WebSearchCallItem = Record<string, unknown> & { type: 'web_search_call'; id: string };

/** The items of a turn that go back before its calls, in the order they came. */
export type ReplayItem = ReasoningItem | WebSearchCallItem;

/** The providerData key the Responses wire keeps its reasoning items under. */
const KEY = 'responsesReasoning';

export function reasoningItemsData(provider: string, model: string, items: ReplayItem[]): ProviderData {
  return { provider, model, [KEY]: items };
}

/** Items this provider and model made on this wire: the only ones it may send back (another model cannot read them; OpenAI rejects them). */
export function isOwnReasoning(data: ProviderData, target: { provider: string; model: string }): boolean {
  return data.provider === target.provider && data.model === target.model && Array.isArray(data[KEY]);
}

/**
 * The reasoning items to send back before a message's calls: its own (see isOwnReasoning), for a
 * turn with calls only. Reasoning matters to the calls it led to; a turn that only answered has
 * its reasoning discarded by the model anyway, and a reasoning item must be followed by its own output item.
 */
export function replayedReasoningItems(message: AssistantMessage, target: { provider: string; model: string }): ReplayItem[] {
  const data = message.providerData;
  if (!data || !isOwnReasoning(data, target) || message.toolCalls.length === 0) return [];
  return data[KEY] as ReplayItem[];
}
