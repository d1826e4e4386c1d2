import { randomUUID } from 'node:crypto';
import type { ApprovalAnswer, ApprovalRequest, AskApproval } from '../tools/approval.js';
import type { Answerer, ConversationNotice, PendingQuestion, QuestionDesk } from './conversation-types.js';

interface Open {
  question: PendingQuestion;
  settle(answer: ApprovalAnswer): void;
  /** Aborts the attached answerers still asking. */
  stopAsking: AbortController;
}

/**
 * Approvals for one conversation: each question is published (so every front end sees it), put to
 * every attached answerer at once, and settled by the first answer from anywhere; the others are
 * told to stop asking. A run that stops while a question waits denies it.
 */
export class Questions implements QuestionDesk {
  private readonly open = new Map<string, Open>();
  private readonly answerers = new Set<Answerer>();

  constructor(private readonly publish: (notice: ConversationNotice) => void) {}

  pending(): PendingQuestion[] {
    return [...this.open.values()].map((entry) => entry.question);
  }

  answer(id: string, answer: ApprovalAnswer): boolean {
    const entry = this.open.get(id);
    if (!entry) return false;
    entry.settle(answer);
    return true;
  }

  attach(answerer: Answerer): () => void {
    this.answerers.add(answerer);
    for (const entry of this.open.values()) this.putTo(answerer, entry);
    return () => void this.answerers.delete(answerer);
  }

  /** Whether any front end can answer now (else a headless run refuses instead of waiting on nobody). */
  get attached(): boolean {
    return this.answerers.size > 0;
  }

  /** The `ask` the permission policy is given. */
  readonly ask: AskApproval = (request: ApprovalRequest, signal: AbortSignal) =>
    new Promise<ApprovalAnswer>((resolve) => {
      const id = randomUUID();
      const stopAsking = new AbortController();
      const entry: Open = {
        question: { id, request },
        stopAsking,
        settle: (answer) => {
          if (!this.open.delete(id)) return;
          signal.removeEventListener('abort', onAbort);
          stopAsking.abort();
          this.publish({ type: 'question_answered', id, answer });
          resolve(answer);
        },
      };
      const onAbort = () => entry.settle('no');
      this.open.set(id, entry);
      this.publish({ type: 'question', id, request });
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      for (const answerer of this.answerers) this.putTo(answerer, entry);
    });

  private putTo(answerer: Answerer, entry: Open): void {
    answerer(entry.question, entry.stopAsking.signal).then(
      (answer) => {
        if (!entry.stopAsking.signal.aborted) entry.settle(answer);
      },
      () => {
        // An answerer that gave up (its signal aborted, its client went away) leaves it to the others.
      },
    );
  }
}
