import type { AgentEvent, StopReason } from '../contracts/events.js';
import type { ImageRef, Message } from '../contracts/messages.js';
import { GOAL_NOTICE_TYPES, type GoalNotice } from './goal/goal-types.js';
import type { Authorize } from '../contracts/tool.js';
import type { PermissionMode } from '../permissions/permission-modes.js';
import type { PlanScope } from '../permissions/plan-scope.js';
import type { ApprovalAnswer, ApprovalRequest } from '../tools/approval.js';

/**
 * The public face of one session: every front end (one-shot printing, the terminal UI, an editor
 * over ACP, a server's clients) drives the same object. Several may be attached at once: each
 * subscribes to the one numbered event stream and may answer the questions it asks.
 */
export interface Conversation {
  /** The session's id (the file's, or a fresh one when nothing is saved). */
  readonly id: string;
  /**
   * Sends a prompt through the pipeline (custom command or MCP prompt, @mentions, UserPromptSubmit
   * hooks, images, plan mode) and runs it, with Stop-hook continuation. While a prompt runs,
   * `queue` (the default) waits its turn; `steer` stops the running one at once and goes next.
   * Resolves when this prompt's run (continuations included) has ended; never rejects for a
   * refused prompt (the outcome says why).
   */
  prompt(text: string, options?: PromptOptions): Promise<PromptOutcome>;
  /** Stops the running prompt (its run ends with reason `aborted`) and drops the queued ones. */
  interrupt(): void;
  /**
   * Every event from now on, numbered. With `after`, the stored events numbered above it are read
   * from the session file first, so a front end attaching late (or after a crash) misses nothing.
   */
  subscribe(listener: (event: ConversationEvent) => void, options?: { after?: number }): () => void;
  /** The stored events numbered above `after`, read back from the session file (empty when nothing is saved). */
  events(after?: number): ConversationEvent[];
  /** The approval questions waiting for an answer; any front end may answer one by its id (the first answer wins). */
  readonly questions: QuestionDesk;
  /** The session's permission mode (plan mode among them): every run's calls are checked in it, and a prompt sent in `plan` is a planning run. */
  readonly mode: PermissionMode;
  /** An approved plan's bounds while it is carried out: a write or command outside them asks again. */
  readonly planScope: PlanScope | undefined;
  /**
   * Changes the mode at once (the running prompt's next call is checked in it) and the plan's bounds
   * (none unless given). A change is recorded as a `mode_changed` event; setting what already holds
   * records nothing.
   */
  setMode(mode: PermissionMode, change: ModeChange): void;
  /** The history as the next prompt continues it. */
  history(): readonly Message[];
  /** Replaces the history (a front end's /compact, /resume of another session's messages, a rewind). */
  setHistory(messages: Message[]): void;
  state(): ConversationState;
  /** Runs SessionEnd (when a prompt started the session), sends the spans, closes the session file. */
  close(reason?: 'clear' | 'prompt_input_exit' | 'other'): Promise<void>;
}

export interface PromptOptions {
  mode?: 'queue' | 'steer';
  /** Images already loaded (an editor's, a paste's). */
  images?: ImageRef[];
  /** Image files to load and fit for the model (`--image`, a pasted path). */
  imagePaths?: string[];
  /** The front end's own stop for this prompt (an editor's cancel); `interrupt` stops whatever runs. */
  signal?: AbortSignal;
  /** Every tool call of this prompt is refused with this reason (a goal's wrap-up turn: no new work). */
  refuseTools?: string;
  /**
   * The text is sent as it is: no command, mention, hook or image step (a replay of a recorded
   * prompt, which the pipeline already expanded when it was recorded).
   */
  verbatim?: boolean;
  /** This prompt's model when no custom command names one (a front end's /model); default the conversation's. */
  model?: string;
  /** This prompt's own permission check instead of the conversation's (the terminal's /init shows its write). */
  authorize?: Authorize;
  /** Blocks sent before the prepared prompt, in the same message (the output of a terminal's `!command`s). */
  before?: string[];
}

/** Who changed the mode: a terminal (Shift+Tab, /plan), its plan approval, an editor (session/set_mode), a server client, a resume in another mode than the file's last. */
export type ModeChangedBy = 'terminal' | 'plan_approval' | 'editor' | 'server' | 'resume';

export interface ModeChange {
  by: ModeChangedBy;
  /** An approved plan's bounds from now on. */
  planScope?: PlanScope;
}

export interface PromptOutcome {
  /** `refused`: the pipeline stopped the prompt before any request (see `refusal`). */
  reason: StopReason | 'refused';
  refusal?: PromptRefusal;
  /** A planning run's plan. */
  plan?: string;
  answer?: string | null;
}

/** Where the pipeline stopped a prompt, and why (the text is the user's to read). */
export interface PromptRefusal {
  stage: 'command' | 'mentions' | 'hook' | 'images';
  reason: string;
}

export interface ConversationState {
  id: string;
  /** The session file, when saved. */
  path: string | undefined;
  running: boolean;
  queued: number;
  /** The last event's number (0 before any). */
  lastSeq: number;
  model: string;
}

/** What the conversation adds to the loop's events: the pipeline's steps and the questions. */
export type ConversationNotice =
  | { type: 'prompt_refused'; stage: PromptRefusal['stage']; reason: string }
  /** What the pipeline attached or noticed (files from @mentions, a resized image), one line each. */
  | { type: 'prompt_notes'; notes: string[] }
  /** A Stop hook blocked the stop: the agent goes back to work with this input. */
  | { type: 'stop_hook_continue'; round: number; input: string }
  | { type: 'question'; id: string; request: ApprovalRequest }
  | { type: 'question_answered'; id: string; answer: ApprovalAnswer }
  /** Written when a session is reopened whose last run never reached its `stop` (the process died). */
  | { type: 'interrupted'; reason: string }
  | { type: 'warning'; text: string }
  /** The permission mode changed (with an approved plan's lists, when one bounds the calls from now on). */
  | { type: 'mode_changed'; mode: PermissionMode; previous: PermissionMode; by: ModeChangedBy; planScope?: { files: string[]; commands: string[] } }
  /** A goal's start, each judgement and its end (docs/goals.md). */
  | GoalNotice;

/** The types of the conversation's own notices (every other event is the loop's). */
export const NOTICE_TYPES: ReadonlySet<string> = new Set<ConversationNotice['type']>(['prompt_refused', 'prompt_notes', 'stop_hook_continue', 'question', 'question_answered', 'interrupted', 'warning', 'mode_changed', ...GOAL_NOTICE_TYPES]);

/** One event of the stream, with its per-session number (events of a resumed session continue the count). */
export type ConversationEvent = (AgentEvent | ConversationNotice) & { seq: number };

export interface PendingQuestion {
  id: string;
  request: ApprovalRequest;
}

/** One place approvals are asked and answered, whichever front end answers. */
export interface QuestionDesk {
  pending(): PendingQuestion[];
  /** Answers a question; false when it is unknown or already answered (by another front end). */
  answer(id: string, answer: ApprovalAnswer): boolean;
  /**
   * A front end that asks actively (a terminal prompt, an editor's permission request): called for
   * each question; its signal aborts when another front end answered first or the run stopped.
   */
  attach(answerer: Answerer): () => void;
}

export type Answerer = (question: PendingQuestion, signal: AbortSignal) => Promise<ApprovalAnswer>;
