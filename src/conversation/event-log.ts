import type { AgentEvent } from '../contracts/events.js';
import { StreamRedactor } from '../session/stream-redactor.js';
import { NOTICE_TYPES, type ConversationEvent, type ConversationNotice } from './conversation-types.js';
import type { SessionFile } from './session-file.js';

/**
 * The conversation's one event stream: each event gets the session's next number, is written to
 * the session file, and only then reaches the subscribers (a front end never shows what a crash
 * could lose). A listener that throws is dropped from the stream, never stops the run.
 *
 * Streamed text is redacted here, before it is numbered, across its pieces: a key the model sends
 * split over deltas reaches no front end (a server's clients, an editor, --json, the terminal) in
 * parts. Each stream (text or reasoning, per agent) holds back only an end that could begin a key
 * (see StreamRedactor); what is held goes out as a delta of its own, with its own number, before the
 * next event that is not a delta of that stream's kind.
 */
export class EventLog {
  private seq: number;
  private readonly listeners = new Set<(event: ConversationEvent) => void>();
  private readonly streams: StreamRedactor | undefined;
  private readonly lastDelta = new Map<string, Delta>();

  constructor(
    private readonly file: () => SessionFile | undefined,
    private readonly onListenerError: (error: Error) => void,
    startSeq = 0,
    /** The values to redact from streamed text (the session's redactor's secrets); none: deltas pass as they are. */
    secrets: readonly string[] = [],
  ) {
    this.seq = startSeq;
    this.streams = secrets.length ? new StreamRedactor([...secrets]) : undefined;
  }

  get lastSeq(): number {
    return this.seq;
  }

  /** Continues the count of a session file opened later (a lazy one, a resume). */
  continueFrom(seq: number): void {
    if (seq > this.seq) this.seq = seq;
  }

  publish(event: AgentEvent | ConversationNotice): void {
    if (!this.streams) return this.number(event);
    if (event.type === 'text_delta' || event.type === 'reasoning_delta') {
      const stream = `${event.agent ?? ''}\u0000${event.type}`;
      this.lastDelta.set(stream, event);
      const text = this.streams.push(stream, event.text);
      // Wholly held (it could begin a key): no event yet; it goes out with the next piece or before the next event.
      if (text !== '') this.number({ ...event, text });
      return;
    }
    for (const [stream, text] of this.streams.flush()) this.number({ ...this.lastDelta.get(stream)!, text });
    this.lastDelta.clear();
    this.number(event);
  }

  private number(event: AgentEvent | ConversationNotice): void {
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

type Delta = Extract<AgentEvent, { type: 'text_delta' | 'reasoning_delta' }>;

function isNotice(event: AgentEvent | ConversationNotice): event is ConversationNotice {
  return NOTICE_TYPES.has(event.type);
}
