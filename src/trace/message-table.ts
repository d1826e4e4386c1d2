import type { Message } from '../contracts/messages.js';
import { REQUEST_OVERHEAD, type TokenCounter } from '../context/token-count.js';
import type { IdRuns, TraceMessage } from './trace-data.js';

/**
 * Every message of a session stored once, by identity: a history holds the same objects from turn
 * to turn. With `byContent`, a message equal to one already stored (a recorded request's copy of a
 * history message) gets that one's id, so recorded requests add only what differs (capped outputs).
 */
export class MessageTable {
  readonly messages: TraceMessage[] = [];
  private readonly ids = new Map<Message, number>();
  private readonly byText = new Map<string, number>();

  constructor(
    private readonly counter: TokenCounter,
    private readonly byContent = false,
  ) {}

  idOf(message: Message): number {
    const known = this.ids.get(message);
    if (known !== undefined) return known;
    const key = this.byContent ? contentKey(message) : undefined;
    const same = key === undefined ? undefined : this.byText.get(key);
    if (same !== undefined) {
      this.ids.set(message, same);
      return same;
    }
    const id = this.messages.length;
    this.messages.push(traceMessage(message, this.counter.message(message)));
    this.ids.set(message, id);
    if (key !== undefined) this.byText.set(key, id);
    return id;
  }

  /** A request as id runs, with its estimated tokens (the chat format's per-request overhead included). */
  request(history: readonly Message[]): { ids: IdRuns; count: number; tokens: number } {
    const ids: IdRuns = [];
    let tokens = REQUEST_OVERHEAD;
    for (const message of history) {
      const id = this.idOf(message);
      tokens += this.messages[id]!.tokens;
      const last = ids.at(-1);
      if (last && last[0] + last[1] === id) last[1]++;
      else ids.push([id, 1]);
    }
    return { ids, count: history.length, tokens };
  }
}

function traceMessage(message: Message, tokens: number): TraceMessage {
  const base: TraceMessage = { role: message.role, content: message.content, tokens };
  if (message.role === 'assistant') {
    if (message.toolCalls.length) base.toolCalls = message.toolCalls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args }));
    if (message.reasoning) base.reasoning = message.reasoning;
  } else if (message.role === 'tool') {
    base.name = message.name;
    if (message.isError) base.isError = true;
  }
  return base;
}

function contentKey(message: Message): string {
  const callId = message.role === 'tool' ? message.toolCallId : '';
  return JSON.stringify([message.role, callId, message.content, message.role === 'assistant' ? [message.reasoning ?? '', message.toolCalls] : message.role === 'tool' ? [message.name, message.isError === true] : null]);
}
