import { readEvents, type ServerEvent } from '../../../client/index.js';
import type { AgentEvent } from '../../../contracts/events.js';
import type { Message } from '../../../contracts/messages.js';
import type { ConversationEvent, ConversationNotice, ConversationState, ModeChange, PromptOptions, PromptOutcome } from '../../../conversation/conversation-types.js';
import { DETACHING, type TuiConversation } from '../../tui/services.js';
import type { ServerConnection } from '../background/server-address.js';
import { RemoteQuestions } from './remote-questions.js';
import type { PermissionMode } from '../../../permissions/permission-modes.js';
import type { PlanScope } from '../../../permissions/plan-scope.js';

type Listener = (event: ConversationEvent) => void;

/** What the attached terminal refuses, with the reason it gives. */
export const REFUSED = 'an attached session is changed by its own server: this works only in the terminal that owns a session';

/**
 * A background session hosted by the session server, as the terminal's conversation: prompts go to
 * `POST /v1/sessions/{id}/prompts`, events come from the SSE stream (from the first, so the history
 * shows first), questions are the server's and answered through its approval route. Detaching
 * (closing this) leaves the session running.
 */
export class RemoteConversation implements TuiConversation {
  readonly questions: RemoteQuestions;
  private readonly seen: ConversationEvent[] = [];
  private readonly listeners = new Set<Listener>();
  private readonly reading = new AbortController();
  private running = false;
  /** The current run showed streamed text (a stored run has none: its reply is given as one delta). */
  private streamed = false;
  private modeSent: Promise<void> = Promise.resolve();
  private shownMode: PermissionMode;
  private shownScope: PlanScope | undefined;
  private readonly startSeq: number;

  constructor(
    private readonly server: ServerConnection,
    readonly id: string,
    private readonly model: string,
    private readonly warn: (text: string) => void,
    /** `mode`: the session's when attaching (the server's info). */
    start: { lastSeq: number; waiting: ReadonlySet<string>; mode: PermissionMode },
  ) {
    this.shownMode = start.mode;
    this.startSeq = start.lastSeq;
    this.questions = new RemoteQuestions((requestId, decision) => this.sendAnswer(requestId, decision), (text) => this.warn(text), start.waiting, start.lastSeq);
    void this.read();
  }

  private async read(): Promise<void> {
    try {
      for await (const event of readEvents({ baseUrl: this.server.url, token: this.server.token, sessionId: this.id, signal: this.reading.signal })) this.take(event);
    } catch (error) {
      if (!this.reading.signal.aborted) this.warn(`the session's event stream stopped: ${(error as Error).message}`);
    }
  }

  private take(raw: ServerEvent): void {
    const event = raw as unknown as ConversationEvent;
    if (event.type === 'run_start') (this.running = true), (this.streamed = false);
    if (event.type === 'text_delta') this.streamed = true;
    if (event.type === 'assistant_message' && !this.streamed && event.message.content) this.emit({ type: 'text_delta', turn: event.turn, text: event.message.content, seq: event.seq });
    if (event.type === 'assistant_message') this.streamed = false;
    if (event.type === 'stop') this.running = false;
    // A change made since attaching (by this terminal or another client): the session's mode now.
    if (event.type === 'mode_changed' && event.seq > this.startSeq) {
      this.shownMode = event.mode;
      this.shownScope = event.planScope;
    }
    this.questions.track(event);
    this.emit(event);
  }

  private emit(event: ConversationEvent): void {
    this.seen.push(event);
    for (const listener of [...this.listeners]) listener(event);
  }

  async prompt(text: string, options: PromptOptions = {}): Promise<PromptOutcome> {
    const sent = await this.server.client.POST('/v1/sessions/{id}/prompts', { params: { path: { id: this.id } }, body: { text, mode: options.mode ?? 'queue', ...this.modeBody() } });
    if (!sent.data) return { reason: 'refused', refusal: { stage: 'command', reason: `the server refused the prompt (${sent.response.status}: ${sent.error?.error ?? 'no reason given'})` } };
    const accepted = sent.data.lastSeq;
    return new Promise((resolve) => {
      // This prompt's run is the first to start after the server accepted it; it ends at that run's stop.
      let started = false;
      const onAbort = () => {
        if (options.signal?.reason !== DETACHING) return this.interrupt();
        // The terminal detaches: the turn goes on in the session, this terminal stops waiting for it.
        off();
        resolve({ reason: 'aborted' });
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const off = this.subscribe(
        (event) => {
          if (event.type === 'run_start') started = true;
          if (event.type !== 'stop' || !started) return;
          off();
          options.signal?.removeEventListener('abort', onAbort);
          resolve({ reason: event.reason, answer: event.answer ?? null, ...(event.plan !== undefined ? { plan: event.plan } : {}) });
        },
        { after: accepted },
      );
    });
  }

  /** The session's mode as this terminal knows it: what it set last, or the server's latest `mode_changed`. */
  get mode(): PermissionMode {
    return this.shownMode;
  }

  get planScope(): PlanScope | undefined {
    return this.shownScope;
  }

  /**
   * Shift+Tab, /plan, an approved plan: shown at once, and the session takes it through the server's
   * mode route (which records the change). One change at a time, each sending the mode shown when it
   * goes, so the last one the server hears is the terminal's; each prompt carries it as well.
   */
  setMode(mode: PermissionMode, change: ModeChange): void {
    this.shownMode = mode;
    this.shownScope = change.planScope;
    this.modeSent = this.modeSent.then(async () => {
      try {
        const sent = await this.server.client.POST('/v1/sessions/{id}/mode', { params: { path: { id: this.id } }, body: this.modeBody() });
        if (!sent.data) this.warn(`the server did not take the mode (${sent.response.status}: ${sent.error?.error ?? 'no reason given'}); the next prompt carries it`);
      } catch (error) {
        this.warn(`the mode did not reach the server (${(error as Error).message}); the next prompt carries it`);
      }
    });
  }

  private modeBody(): { permissionMode: PermissionMode; planScope?: { files: string[]; commands: string[] } } {
    const scope = this.shownScope;
    return { permissionMode: this.shownMode, ...(scope ? { planScope: { files: scope.files, commands: scope.commands } } : {}) };
  }

  interrupt(): void {
    void this.server.client.POST('/v1/sessions/{id}/interrupt', { params: { path: { id: this.id } } }).then((sent) => {
      if (!sent.data) this.warn(`the server did not stop the turn (${sent.response.status})`);
    });
  }

  subscribe(listener: Listener, options: { after?: number } = {}): () => void {
    if (options.after !== undefined) for (const event of this.events(options.after)) listener(event);
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  events(after = 0): ConversationEvent[] {
    return this.seen.filter((event) => event.seq > after);
  }

  /** The history lives in the server's session; the terminal shows it from the events. */
  history(): readonly Message[] {
    return [];
  }

  setHistory(): void {
    throw new Error(REFUSED);
  }

  note(_event: AgentEvent | ConversationNotice): void {
    throw new Error(REFUSED);
  }

  rewind(): void {
    throw new Error(REFUSED);
  }

  state(): ConversationState {
    const lastSeq = this.seen.at(-1)?.seq ?? 0;
    return { id: this.id, path: undefined, running: this.running, queued: 0, lastSeq, model: this.model };
  }

  /** Detaches: stops reading; the session goes on in the server. */
  async close(): Promise<void> {
    this.reading.abort();
    this.questions.close();
    this.listeners.clear();
  }

  private async sendAnswer(requestId: string, decision: 'allow' | 'deny' | 'always'): Promise<true | string> {
    const sent = await this.server.client.POST('/v1/sessions/{id}/approvals/{requestId}', { params: { path: { id: this.id, requestId } }, body: { decision } });
    if (sent.data) return true;
    if (sent.response.status === 409) return `approval ${requestId} was answered already (by another client, or its turn ended); this answer changed nothing`;
    return `the server refused the answer to ${requestId} (${sent.response.status}: ${sent.error?.error ?? 'no reason given'})`;
  }
}
