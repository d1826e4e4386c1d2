import type { AssistantMessage, Message, ToolMessage } from '../contracts/messages.js';
import { sharedPrefix } from '../contracts/prefix-memo.js';

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
  let lookup: ReturnType<typeof indexById> | undefined;
  // Usually the results follow the call at once; the index is built only when one is elsewhere.
  const findResult = (from: number, id: string, used: Set<number>, position: number): number | undefined => {
    const near = from + position;
    const candidate = messages[near];
    if (candidate?.role === 'tool' && candidate.toolCallId === id && !used.has(near)) return near;
    lookup ??= indexById(messages);
    return lookup(from, id, used);
  };

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
    message.toolCalls.forEach((call, position) => {
      const found = findResult(index + 1, call.id, used, position);
      if (found === undefined) {
        repairs.push(`added a cancelled result for unanswered call ${call.id} (${call.name})`);
        out.push(cancelledResult(call));
      } else {
        used.add(found);
        out.push(messages[found]!);
      }
    });
  });
  const unmoved = out.length === messages.length && out.every((message, i) => message === messages[i]);
  if (repairs.length === 0 && !unmoved) repairs.push('moved tool results to follow their calls, in call order');
  return { messages: repairs.length ? out : messages, repairs };
}

/** Where each call id is made and answered, so finding a call's result does not rescan the history. */
function indexById(messages: Message[]): (from: number, id: string, used: Set<number>) => number | undefined {
  const results = new Map<string, number[]>();
  const callers = new Map<string, number[]>();
  const add = (map: Map<string, number[]>, id: string, at: number) => {
    const list = map.get(id);
    if (list) list.push(at);
    else map.set(id, [at]);
  };
  messages.forEach((message, at) => {
    if (message.role === 'tool') add(results, message.toolCallId, at);
    if (message.role === 'assistant') for (const call of message.toolCalls) add(callers, call.id, at);
  });
  // The first unused result after the call, before a later assistant message makes a call with that id.
  return (from, id, used) => {
    const nextCaller = callers.get(id)?.find((at) => at >= from) ?? Infinity;
    return results.get(id)?.find((at) => at >= from && at < nextCaller && !used.has(at));
  };
}

/**
 * repairHistory for the loop, round after round: a history that extends the last one found sound
 * (the same message objects in the same places) needs only its new messages checked. A sound
 * history answers every call it makes, so a new result for one of its calls would be an orphan
 * (or a second result) in the new part alone, and is then repaired on the whole history as before.
 */
export class HistoryRepairer {
  private sound: Message[] = [];

  repair(messages: Message[]): RepairedHistory {
    const known = this.sound;
    if (known.length > 0 && messages.length >= known.length && sharedPrefix(known, messages) === known.length) {
      const added = repairHistory(messages.slice(known.length));
      if (added.repairs.length === 0) {
        this.sound = [...messages];
        return { messages, repairs: [] };
      }
    }
    const whole = repairHistory(messages);
    this.sound = [...whole.messages];
    return whole;
  }
}
