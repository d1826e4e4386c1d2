import { randomUUID } from 'node:crypto';
import type { AgentEvent } from '../contracts/events.js';
import type { Message } from '../contracts/messages.js';
import type { Authorize } from '../contracts/tool.js';
import { CacheWatch } from '../core/cache-watch.js';
import { LeftOutNotes } from '../core/left-out-notes.js';
import { endSession, type SessionEndReason } from '../hooks/session-end.js';
import type { ConversationParts, RunWatcher } from './conversation-parts.js';
import type { Conversation, ConversationNotice, ConversationState, PromptOptions, PromptOutcome } from './conversation-types.js';
import { changeMode, modeAtResume, type ModeChanged } from './mode-change.js';
import type { GoalNotice } from './goal/goal-types.js';
import { EventLog } from './event-log.js';
import { preparePrompt, type PreparedPrompt } from './prompt-pipeline.js';
import { Questions } from './question-desk.js';
import { runRounds } from './run-rounds.js';
import type { SessionFile } from './session-file.js';

/** The conversation as its owner holds it: the public face plus the permission policy it built. */
export interface ConversationCore extends Conversation {
  /** The permission policy every run of this conversation is checked by (its mode is `mode`, changed only through `setMode`). */
  readonly authorize: Authorize;
  readonly questions: Questions;
  /** Records a notice of the conversation's own (a goal's) or a front end's event (a /compact) in the numbered stream and the session file. */
  note(notice: GoalNotice | AgentEvent | ConversationNotice): void;
  /** Appends a rewind to the session file: its first `toRecord` records make the history from here on (then `setHistory` the rebuilt one). */
  rewind(toRecord: number): void;
}

interface Queued {
  text: string;
  options: PromptOptions;
  resolve(outcome: PromptOutcome): void;
  reject(error: unknown): void;
}

/**
 * Opens one session's conversation: the session file (new, resumed, or none), the event log, the
 * questions, the permission policy and the spans, then runs prompts one at a time from a queue.
 * Throws when a stored session cannot be opened (locked by another run, unreadable).
 */
export async function openConversation(parts: ConversationParts): Promise<ConversationCore> {
  const fileOptions = { workspace: parts.workspace, system: parts.system, env: parts.env, redact: parts.redact, warn: parts.warn };
  // With no session, none of the session store's code loads.
  const files = parts.session.kind === 'none' ? undefined : await import('./session-file.js');
  let file: SessionFile | undefined = parts.session.kind === 'resume' ? await files!.resumeSessionFile(parts.session.path, fileOptions) : parts.session.kind === 'new' && !parts.session.lazy ? files!.newSessionFile(fileOptions) : undefined;
  let unsaved = parts.session.kind === 'none';
  const fileNow = (): SessionFile | undefined => {
    if (file || unsaved) return file;
    file = files?.newSessionFile(fileOptions);
    unsaved = file === undefined;
    if (file) log.continueFrom(file.lastSeq);
    return file;
  };
  const log = new EventLog(fileNow, (error) => parts.warn(`a front end's event listener failed and was detached (${error.message}).`), file?.lastSeq ?? 0, parts.secrets);
  if (file?.inFlight) log.publish({ type: 'interrupted', reason: 'the process ended before the last run stopped' });
  const questions = new Questions((notice) => log.publish(notice));
  const authorize = parts.authorize(parts.asks ? questions.ask : undefined);
  if (file && parts.session.kind === 'resume') {
    const resumedIn = modeAtResume(file.readAfter(0), authorize.mode);
    if (resumedIn) log.publish(resumedIn);
  }
  let history: Message[] | undefined = file?.messages;
  const resumed = history !== undefined;
  if (history && parts.todos) (await import('../tools/builtin/todo.js')).restoreTodos(parts.todos, history);
  const fallbackId = randomUUID();
  const watcher: RunWatcher | undefined = await parts.watch?.(file?.id);
  const cacheWatch = new CacheWatch({ ttlMs: parts.cacheTtlMs });
  const leftOutNotes = new LeftOutNotes();
  let plan = parts.approvedPlan;
  // A lazy session's file appears at its first event: a mode chosen before any prompt is recorded
  // when the first prompt runs, so choosing a mode alone leaves no session file behind.
  let heldMode: ModeChanged | undefined;
  const recordHeldMode = () => {
    if (heldMode && (heldMode.mode !== heldMode.previous || heldMode.planScope)) log.publish(heldMode);
    heldMode = undefined;
  };
  let hooksStarted = false;
  const queue: Queued[] = [];
  let running: AbortController | undefined;
  let pumping: Promise<void> | undefined;
  let closed = false;

  const runOne = async (item: Queued, signal: AbortSignal): Promise<PromptOutcome> => {
    const session = { id: file?.id, path: file?.path, resumed, starts: !hooksStarted, ...(parts.session.kind === 'new' && parts.session.afterClear ? { source: 'clear' as const } : {}) };
    const prepared: PreparedPrompt = item.options.verbatim
      ? { ok: true, input: item.text, model: undefined, images: item.options.images ?? [], notes: [] }
      : await preparePrompt(parts, { text: item.text, authorize, signal, session, ...(item.options.images ? { images: item.options.images } : {}), ...(item.options.imagePaths ? { imagePaths: item.options.imagePaths } : {}), ...(plan !== undefined ? { plan } : {}) });
    // SessionStart ran when the prompt reached the hooks (a command or a mention refused before them).
    hooksStarted ||= parts.hooks !== undefined && !item.options.verbatim && (prepared.ok || prepared.refusal.stage === 'hook' || prepared.refusal.stage === 'images');
    if (!prepared.ok) {
      log.publish({ type: 'prompt_refused', stage: prepared.refusal.stage, reason: prepared.refusal.reason });
      return { reason: 'refused', refusal: prepared.refusal };
    }
    plan = undefined;
    if (prepared.notes.length) log.publish({ type: 'prompt_notes', notes: prepared.notes });
    // Recorded before the run, in the same step that decides whether it plans.
    recordHeldMode();
    return runRounds(
      { parts, authorize, signal, cacheWatch, leftOutNotes, watcher, file: fileNow, publish: (event) => log.publish(event), history: () => history, setHistory: (messages) => (history = messages) },
      {
        input: [...(item.options.before ?? []), prepared.input].join('\n\n'),
        model: prepared.model ?? item.options.model,
        images: prepared.images,
        // The one place a prompt's plan mode is decided: the mode it starts in.
        planning: authorize.mode === 'plan',
        ...(item.options.refuseTools !== undefined ? { refuseTools: item.options.refuseTools } : {}),
        ...(item.options.authorize ? { authorize: item.options.authorize } : {}),
      },
    );
  };

  const pump = async (): Promise<void> => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      const controller = new AbortController();
      running = controller;
      const stop = () => controller.abort();
      item.options.signal?.addEventListener('abort', stop, { once: true });
      if (item.options.signal?.aborted) controller.abort();
      try {
        item.resolve(await runOne(item, controller.signal));
      } catch (error) {
        item.reject(error);
      } finally {
        item.options.signal?.removeEventListener('abort', stop);
        running = undefined;
      }
    }
    pumping = undefined;
  };

  const interrupt = () => {
    for (const item of queue.splice(0)) item.resolve({ reason: 'aborted' });
    running?.abort();
  };

  const conversation: ConversationCore = {
    get id() {
      return file?.id ?? fallbackId;
    },
    authorize,
    questions,
    get mode() {
      return authorize.mode;
    },
    get planScope() {
      return authorize.planScope;
    },
    setMode(mode, change) {
      const changed = changeMode(authorize, mode, change);
      if (!changed) return;
      if (!file && !unsaved) {
        heldMode = { ...changed, previous: heldMode?.previous ?? changed.previous };
        return;
      }
      recordHeldMode();
      log.publish(changed);
    },
    note: (notice) => log.publish(notice),
    rewind: (toRecord) => file?.rewind(toRecord),
    prompt(text, options = {}) {
      if (closed) return Promise.reject(new Error('this conversation is closed.'));
      return new Promise<PromptOutcome>((resolve, reject) => {
        const item: Queued = { text, options, resolve, reject };
        if (options.mode === 'steer') {
          queue.unshift(item);
          running?.abort();
        } else queue.push(item);
        pumping ??= pump();
      });
    },
    interrupt,
    subscribe: (listener, options = {}) => log.subscribe(listener, options.after),
    events: (after = 0) => log.stored(after),
    history: () => history ?? [],
    setHistory: (messages) => (history = messages),
    state: (): ConversationState => ({ id: conversation.id, path: file?.path, running: running !== undefined, queued: queue.length, lastSeq: log.lastSeq, model: parts.model }),
    async close(reason: SessionEndReason = 'other') {
      if (closed) return;
      closed = true;
      interrupt();
      await pumping;
      try {
        if (hooksStarted) await endSession(parts.hooks, reason);
        // Spans are sent before the process exits, also after an interrupt or an error.
        await watcher?.shutdown().catch((error: unknown) => parts.warn(`the OpenTelemetry spans could not be sent (${(error as Error).message}).`));
      } finally {
        // Every record is already written; closing only fsyncs.
        file?.close();
      }
    },
  };
  return conversation;
}
