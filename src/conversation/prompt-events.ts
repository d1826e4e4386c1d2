import type { AgentEvent } from '../contracts/events.js';
import { NOTICE_TYPES, type Conversation, type ConversationEvent, type PromptOptions, type PromptOutcome } from './conversation-types.js';

/**
 * One prompt as a stream: the conversation's events from the moment it is sent until its run (and
 * any Stop-hook continuation) has ended, then its outcome. For a front end that drives one prompt at
 * a time (one-shot, an editor); a front end that shows everything subscribes instead.
 */
export async function* promptEvents(conversation: Conversation, text: string, options: PromptOptions = {}): AsyncGenerator<ConversationEvent, PromptOutcome> {
  const waiting: ConversationEvent[] = [];
  let wake: (() => void) | undefined;
  let settled: { outcome: PromptOutcome } | { error: unknown } | undefined;
  const nudge = () => {
    wake?.();
    wake = undefined;
  };
  const unsubscribe = conversation.subscribe((event) => {
    waiting.push(event);
    nudge();
  });
  conversation.prompt(text, options).then(
    (outcome) => {
      settled = { outcome };
      nudge();
    },
    (error: unknown) => {
      settled = { error };
      nudge();
    },
  );
  try {
    for (;;) {
      const next = waiting.shift();
      if (next) {
        yield next;
        continue;
      }
      if (settled) {
        if ('error' in settled) throw settled.error;
        return settled.outcome;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    unsubscribe();
  }
}

/** The loop's event without the conversation's number, or undefined for the conversation's own notices. */
export function agentEventOf(event: ConversationEvent): AgentEvent | undefined {
  if (NOTICE_TYPES.has(event.type)) return undefined;
  const { seq: _seq, ...rest } = event;
  return rest as AgentEvent;
}
