import type { Answerer, ConversationEvent, PendingQuestion, QuestionDesk } from '../../../conversation/conversation-types.js';
import type { ApprovalAnswer, ApprovalRequest } from '../../../tools/approval.js';

const DECISIONS: Record<ApprovalAnswer, 'allow' | 'deny' | 'always'> = { yes: 'allow', no: 'deny', always: 'always' };

/** Sends one answer to the server's approval route: true when it decided the request, else why not. */
export type SendAnswer = (id: string, decision: 'allow' | 'deny' | 'always') => Promise<true | string>;

/**
 * A server session's questions, as the terminal's question desk: learnt from the event stream's
 * `question` / `question_answered` notices, answered through `POST …/approvals/{id}` where the first
 * answer from any client wins. A question asked here is withdrawn when another client answered it.
 */
export class RemoteQuestions implements QuestionDesk {
  private readonly open = new Map<string, { request: ApprovalRequest; asked: AbortController[] }>();
  private readonly answerers = new Set<Answerer>();
  /** The terminal's own questions (/init's write): an attached session's calls are asked by its server, so none is allowed here. */
  readonly ask = async (): Promise<ApprovalAnswer> => 'no';

  constructor(
    private readonly send: SendAnswer,
    private readonly warn: (text: string) => void,
    /** Questions asked before the stream was read that are still waiting (the server's pending approvals). */
    private readonly waiting: ReadonlySet<string>,
    /** Events numbered above this are live: their questions are open until answered. */
    private readonly liveAfter: number,
  ) {}

  /** Fed every event of the stream, in order. */
  track(event: ConversationEvent): void {
    if (event.type === 'question' && (event.seq > this.liveAfter || this.waiting.has(event.id))) {
      const entry = { request: event.request, asked: [] as AbortController[] };
      this.open.set(event.id, entry);
      for (const answerer of this.answerers) this.askOne(answerer, { id: event.id, request: event.request });
    } else if (event.type === 'question_answered') {
      const entry = this.open.get(event.id);
      this.open.delete(event.id);
      const said = event.answer === 'no' ? 'denied' : event.answer === 'always' ? 'always allowed' : 'allowed';
      entry?.asked.forEach((controller) => controller.abort(`${said} elsewhere (by another client, or as its turn stopped)`));
    }
  }

  pending(): PendingQuestion[] {
    return [...this.open].map(([id, { request }]) => ({ id, request }));
  }

  answer(id: string, answer: ApprovalAnswer): boolean {
    if (!this.open.has(id)) return false;
    void this.send(id, DECISIONS[answer]).then((sent) => {
      if (sent !== true) this.warn(sent);
    });
    return true;
  }

  attach(answerer: Answerer): () => void {
    this.answerers.add(answerer);
    for (const question of this.pending()) this.askOne(answerer, question);
    return () => this.answerers.delete(answerer);
  }

  /** Aborts every question being asked here (the terminal detaches). */
  close(): void {
    for (const entry of this.open.values()) entry.asked.forEach((controller) => controller.abort());
  }

  private askOne(answerer: Answerer, question: PendingQuestion): void {
    const entry = this.open.get(question.id);
    if (!entry) return;
    const controller = new AbortController();
    entry.asked.push(controller);
    answerer(question, controller.signal).then(
      (answer) => {
        if (!controller.signal.aborted) this.answer(question.id, answer);
      },
      (error: unknown) => this.warn(`the question ${question.id} was not answered: ${(error as Error).message}`),
    );
  }
}
