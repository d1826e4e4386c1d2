import { canonicalJson } from '../contracts/canonical-json.js';
import type { AssistantMessage, ImageRef, Message, ToolMessage } from '../contracts/messages.js';

/** The records of a turn that carry its messages (what a session file holds of them). */
export type TurnEvent =
  | { type: 'turn_start' }
  | { type: 'assistant_message'; message: AssistantMessage }
  | { type: 'tool_call_end'; id: string; name: string; output: string; isError: boolean; images?: ImageRef[] }
  | { type: 'turn_end' };

const TURN_EVENT_TYPES = new Set<string>(['turn_start', 'assistant_message', 'tool_call_end', 'turn_end']);

export function isTurnEvent<T extends { type: string }>(event: T): event is Extract<T, { type: TurnEvent['type'] }> {
  return TURN_EVENT_TYPES.has(event.type);
}

/**
 * A turn's messages as its events carry them: the `assistant_message`, then one result per call
 * from `tool_call_end`, in the order of the calls (concurrent calls may finish in another order).
 * The session writer uses it to leave out of `turn_end` what the events already hold, and the
 * rebuild to put it back, so both sides agree on what "already held" means.
 */
export class TurnEvents {
  private assistant: AssistantMessage | undefined;
  private readonly outputs = new Map<string, ToolMessage>();

  observe(event: TurnEvent): void {
    if (event.type === 'turn_start' || event.type === 'turn_end') {
      this.assistant = undefined;
      this.outputs.clear();
    } else if (event.type === 'assistant_message') {
      // A copy: what is compared at turn end must be what was written, even if the object changes later.
      this.assistant = structuredClone(event.message);
    } else {
      const images = event.images?.length ? { images: event.images } : {};
      this.outputs.set(event.id, { role: 'tool', toolCallId: event.id, name: event.name, content: event.output, isError: event.isError, ...images });
    }
  }

  /** The turn's first `count` messages as the events hold them; undefined when they hold fewer. */
  messages(count: number): Message[] | undefined {
    const held = this.held();
    return held.length >= count ? held.slice(0, count) : undefined;
  }

  /** How many of a turn's messages, from the first, the events hold exactly. */
  countHeld(messages: Message[]): number {
    const held = this.held();
    let count = 0;
    while (count < messages.length && count < held.length && canonicalJson(messages[count]) === canonicalJson(held[count])) count++;
    return count;
  }

  /** The assistant message, then the results of its calls in call order up to the first one missing. */
  private held(): Message[] {
    if (!this.assistant) return [];
    const held: Message[] = [this.assistant];
    for (const call of this.assistant.toolCalls) {
      const result = this.outputs.get(call.id);
      if (!result) break;
      held.push(result);
    }
    return held;
  }
}
