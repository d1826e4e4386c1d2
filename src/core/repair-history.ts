import type { AssistantMessage, Message, ToolMessage } from './messages.js';

export interface RepairedHistory {
  messages: Message[];
  /** One line per change, for the `history_repaired` event; empty when the history was sound. */
  repairs: string[];
}

/** The result given to a call that never got one (a run cut off between the reply and its tools). */
export function cancelledResult(call: AssistantMessage['toolCalls'][number]): ToolMessage {
  return {
    role: 'tool',
    toolCallId: call.id,
    name: call.name,
    content: `The call to ${call.name} was cancelled before it returned a result, so it may not have run. Call it again if it is still needed.`,
    isError: true,
  };
}

/**
 * Makes a history every provider accepts, whatever was resumed or rewritten: each tool call is
 * answered right after its assistant message, in call order (a missing result becomes a
 * cancelled error result); a result whose call is not before it is dropped, as is a second result
 * for one call; an assistant message with neither text nor calls is dropped (every provider
 * rejects it, and dropping loses nothing). Consecutive user messages are left alone: adapters
 * whose API wants alternation merge them. Messages not changed are the same objects.
 */
export function repairHistory(messages: Message[]): RepairedHistory {
  const repairs: string[] = [];
  const out: Message[] = [];
  const used = new Set<number>();

  messages.forEach((message, index) => {
    if (message.role === 'tool') {
      if (!used.has(index)) repairs.push(`dropped the result for call ${message.toolCallId} (${message.name}): no earlier assistant message made that call`);
      return;
    }
    if (message.role !== 'assistant') return void out.push(message);
    if (!message.content.trim() && message.toolCalls.length === 0) {
      repairs.push(`dropped an empty assistant message (no text, no tool calls) at position ${index}`);
      return;
    }
    out.push(message);
    for (const call of message.toolCalls) {
      const found = findResult(messages, index + 1, call.id, used);
      if (found === undefined) {
        repairs.push(`added a cancelled result for unanswered call ${call.id} (${call.name})`);
        out.push(cancelledResult(call));
      } else {
        used.add(found);
        out.push(messages[found]!);
      }
    }
  });
  const unmoved = out.length === messages.length && out.every((message, i) => message === messages[i]);
  if (repairs.length === 0 && !unmoved) repairs.push('moved tool results to follow their calls, in call order');
  return { messages: repairs.length ? out : messages, repairs };
}

/** The first unused result for `id` after `from`, before the next assistant message's calls claim it. */
function findResult(messages: Message[], from: number, id: string, used: Set<number>): number | undefined {
  for (let i = from; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === 'assistant' && message.toolCalls.some((call) => call.id === id)) return undefined;
    if (message.role === 'tool' && message.toolCallId === id && !used.has(i)) return i;
  }
  return undefined;
}
