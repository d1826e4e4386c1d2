import type { AgentEvent } from '../contracts/events.js';
import { NOTICE_TYPES, type ConversationEvent, type ConversationNotice } from './conversation-types.js';
import type { SessionFile } from './session-file.js';

/**
 * The conversation's one event stream: each event gets the session's next number, is written to
 * the session file, and only then reaches the subscribers (a front end never shows what a crash
 * could lose). A listener that throws is dropped from the stream, never stops the run.
 */
export class EventLog {
  private seq: number;
  private readonly listeners = new Set<(event: ConversationEvent) => void>();

  constructor(
    private readonly file: () => SessionFile | undefined,
    private readonly onListenerError: (error: Error) => void,
    startSeq = 0,
  ) {
    this.seq = startSeq;
  }

  get lastSeq(): number {
    return this.seq;
  }

  /** Continues the count of a session file opened later (a lazy one, a resume). */
  continueFrom(seq: number): void {
    if (seq > this.seq) this.seq = seq;
  }

  publish(event: AgentEvent | ConversationNotice): ConversationEvent {
    this.seq += 1;
    const file = this.file();
    if (isNotice(event)) file?.notice(event, this.seq);
    else file?.record(event, this.seq);
    const numbered = { ...event, seq: this.seq } as ConversationEvent;
    for (const listener of [...this.listeners]) {
      try {
        listener(numbered);
      } catch (error) {
        this.listeners.delete(listener);
        this.onListenerError(error as Error);
      }
    }
    return numbered;
  }

  /** Listens from now on; with `after`, first hands over the stored events numbered above it. */
  subscribe(listener: (event: ConversationEvent) => void, after?: number): () => void {
    if (after !== undefined) for (const event of this.stored(after)) listener(event);
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  stored(after = 0): ConversationEvent[] {
    return this.file()?.readAfter(after) ?? [];
  }
}

function isNotice(event: AgentEvent | ConversationNotice): event is ConversationNotice {
  return NOTICE_TYPES.has(event.type);
}
