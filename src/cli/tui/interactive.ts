import { TodoPin } from './todo-pin.js';
import type { PermissionMode } from '../../permissions/permission-policy.js';
import { parsePlanScope, type PlanScope } from '../../permissions/plan-scope.js';
import { childBlockLines, type ChildBlock } from './child-blocks.js';
import { EXECUTE_PLAN_PROMPT, modeCycle, modeLabel, nextMode, planChoice, planQuestionLines } from './plan-mode.js';
import type { ToolRegistry } from '../../tools/registry.js';
import { createApprovalPrompt } from './approval-prompt.js';
import { PastedTexts } from '../prompt/pasted-text.js';
import { earlierTurnLines } from './earlier-turns.js';
import type { AskApproval } from '../../tools/approval.js';
import { INIT_PROMPT, initAuthorize } from './init-command.js';
import { ConversationState } from './conversation-state.js';
import { CtrlCPolicy } from './ctrl-c.js';
import { EventView } from './event-view.js';
import { ActiveGoal, goalNoticeLines } from './goal-command.js';
import { pursueGoal } from '../../conversation/goal/pursue-goal.js';
import { capsLeft, type UnfinishedGoal } from '../../conversation/goal/goal-resume.js';
import { visibleText } from '../display/visible-text.js';
import { InputEditor } from './input-editor.js';
import type { InputHistory } from './input-history.js';
import { ESCAPE_WAIT_MS, KeyParser, type Key } from './key-parser.js';
import { KeyQueue, typeNumber } from './key-queue.js';
import { LiveScreen } from './live-screen.js';
import { DETACHING, type InteractiveServices, type TuiConversation } from './services.js';
import { runTypedCommand, typedCommand, typedCommandBlock } from './shell-escape.js';
import { completeMention, workspaceLister } from '../../mentions/complete-mention.js';
import { completeSlash, isBuiltinCommand, parseSlashCommand, runSlashCommand } from './slash-commands.js';
import { renderStatusLine } from './status-line.js';
import { TurnView } from './turn-view.js';
import type { Theme } from '../display/theme.js';
import { stripAnsi } from '../display/text-width.js';

export interface TerminalInput {
  on(event: 'data', listener: (data: Buffer | string) => void): unknown;
  off(event: 'data', listener: (data: Buffer | string) => void): unknown;
  setRawMode?(raw: boolean): unknown;
  resume(): unknown;
  pause(): unknown;
}

export interface TerminalOutputStream {
  write(text: string): unknown;
  columns?: number;
  rows?: number;
  on?(event: 'resize', listener: () => void): unknown;
  off?(event: 'resize', listener: () => void): unknown;
}

export interface InteractiveOptions {
  input: TerminalInput;
  output: TerminalOutputStream;
  theme: Theme;
  /** The conversation and everything around it (src/cli/commands/interactive builds them). */
  services: InteractiveServices;
  /** The provider's name, for the header line. */
  providerName: string;
  model: string;
  /** The tools (`!command` runs the shell tool; /tools lists them). */
  tools: ToolRegistry;
  workspace: string;
  /** The turn limit, for the status line. */
  maxTurns: number;
  history?: InputHistory;
  /** Within this long after a Ctrl-C cancelled a turn, a second one exits (default 1000 ms). */
  doubleInterruptMs?: number;
  /** Ctrl-Z: stops the process until it is continued (the terminal is handed back meanwhile). */
  suspend?: () => Promise<void>;
  /** Ends the session from outside (SIGTERM, or SIGINT sent by another process). */
  signal?: AbortSignal;
  /**
   * Attached to a session that also works on its own (`vibe-agent attach`): its whole stream is
   * rendered, from the first event, between this terminal's turns too, and its questions asked
   * whenever they come. `keys` replaces the key hint line.
   */
  follow?: { keys: string };
}

const PROMPT = '› ';
/** Commands that act at once while a turn runs, rather than waiting their turn. */
const AT_ONCE = new Set(['bg', 'detach']);
const TICK_MS = 80;
/** A `!command`'s output shown on screen; the model gets it all (capped losslessly by the registry). */
const TYPED_OUTPUT_LINES = 30;

/**
 * The interactive session: a front end of the conversation core. Each user turn is one prompt
 * sent to the conversation, whose events it renders and whose questions it answers; this class
 * only routes keys, renders and runs slash commands: no loop logic.
 */
export class InteractiveSession {
  private readonly screen: LiveScreen;
  private readonly parser = new KeyParser();
  private readonly editor: InputEditor;
  private readonly services: InteractiveServices;
  private readonly ask: AskApproval;
  /** The calls the user was asked about in this turn (/init asks about its write when the rules did not). */
  private readonly askedCalls = new Set<string>();
  /** `!command` runs since the last prompt: they go to the model with the next one. */
  private readonly shellContext: string[] = [];
  private readonly modes: PermissionMode[];
  /** The mode /plan returns to. */
  private beforePlan: PermissionMode = 'ask';
  /** Ctrl-O: subagent blocks show their tool lines. */
  private expanded = false;
  /** The subagents of the last turn, for Ctrl-O at the prompt. */
  private lastSubagents: ChildBlock[] = [];
  private readonly conversation: ConversationState;
  private readonly events: EventView;
  private view: TurnView | undefined;
  private running: AbortController | undefined;
  private approval: string[] | undefined;
  private keyWaiter: ((key: Key | undefined) => void) | undefined;
  private submit: ((text: string | undefined) => void) | undefined;
  private hint: string[] = [];
  private readonly todos: TodoPin;
  /** Prompts typed while a turn was running: they run next, in order. */
  private readonly queued: string[] = [];
  private readonly ctrlC: CtrlCPolicy;
  /** Long pastes, shown as chips and sent as attachments. */
  private readonly pastes = new PastedTexts();
  private exiting = false;
  /** /init queued its prompt: that turn asks about its write to AGENTS.md. */
  private initNext = false;
  /** The goal being pursued (one per session), and one /goal started or a resume agreed to continue. */
  private goal: ActiveGoal | undefined;
  private nextGoal: { condition: string; resumed?: UnfinishedGoal } | undefined;
  /** Between Ctrl-Z and the continue: nothing is drawn. */
  private suspended = false;
  /** /bg was asked for: the session moves to the background once the running turn has stopped. */
  private backgroundNext = false;
  /** The turn /bg stopped: the server carries on with it. */
  private stoppedForBackground = false;
  /** Attached: a run of the session this terminal did not start is in progress; aborting it stops the session's turn. */
  private followed: AbortController | undefined;

  constructor(private readonly options: InteractiveOptions) {
    this.screen = new LiveScreen(options.output, { colour: options.theme.enabled });
    this.editor = new InputEditor(options.history);
    this.services = options.services;
    const history = [...this.services.conversation().history()];
    this.conversation = new ConversationState(options.model, history, this.services);
    this.todos = new TodoPin(history);
    this.events = new EventView({ commit: (lines) => this.screen.commit(lines), render: () => this.render(), width: () => this.screen.width }, options.theme, this.conversation, this.todos);
    this.ctrlC = new CtrlCPolicy(options.doubleInterruptMs ?? 1000);
    const prompt = createApprovalPrompt(
      {
        show: (lines) => {
          this.approval = lines;
          this.render();
        },
        commit: (lines) => this.screen.commit(lines),
        nextKey: (signal) => this.nextKey(signal),
        maxDetailLines: () => Math.max(3, (options.output.rows ?? 24) - 10),
      },
      options.theme,
      () => this.stopTurnAtQuestion(),
    );
    this.ask = (request, signal) => {
      this.askedCalls.add(request.call.id);
      return prompt(request, signal);
    };
    const { mode } = this.services.conversation();
    this.modes = modeCycle(mode);
    if (mode !== 'plan') this.beforePlan = mode;
  }

  /** Runs until /exit, Ctrl-D or a double Ctrl-C; resolves with the exit code. */
  async run(): Promise<number> {
    const { input, output, theme: t } = this.options;
    // A lone ESC may be the start of a sequence split across reads: wait a moment for the rest.
    let escapeTimer: NodeJS.Timeout | undefined;
    const onData = (data: Buffer | string) => {
      clearTimeout(escapeTimer);
      this.onKeys(this.parser.feed(data.toString()));
      if (this.parser.pending) escapeTimer = setTimeout(() => this.onKeys(this.parser.flush()), ESCAPE_WAIT_MS);
    };
    const onResize = () => this.render();
    const onOutsideAbort = () => this.exit();
    let unfollow: (() => void) | undefined;
    this.options.signal?.addEventListener('abort', onOutsideAbort, { once: true });
    input.setRawMode?.(true);
    input.on('data', onData);
    input.resume();
    output.on?.('resize', onResize);
    output.write('\x1b[?2004h');
    try {
      this.screen.commit([
        `${t.bold('vibe-agent')} ${t.dim(`· ${this.options.providerName} · ${this.conversation.model} · ${this.options.workspace}`)}`,
        ...(this.conversation.messages.length ? [...earlierTurnLines(this.conversation.messages, t, this.screen.width), '', t.dim(`Continuing a conversation of ${this.conversation.messages.length} messages.`)] : []),
        t.dim(this.options.follow?.keys ?? '/help for commands · Enter sends · Shift+Enter or \\ for a new line · Shift+Tab cycles modes · Ctrl-C cancels · Ctrl-D exits'),
      ]);
      if (this.options.follow) unfollow = this.follow();
      this.services.setNotify((text) => this.screen.commit([t.yellow(`⚠ ${text}`)]));
      if (this.options.signal?.aborted) this.exit();
      await this.offerUnfinishedGoal();
      for (;;) {
        const goal = this.nextGoal;
        this.nextGoal = undefined;
        if (goal && !this.exiting) {
          await this.runGoal(goal.condition, goal.resumed);
          if (this.exiting) break;
          continue;
        }
        const text = await this.readPrompt();
        if (text === undefined || this.exiting) break;
        const command = typedCommand(text);
        if (text.trim().startsWith('/') && (isBuiltinCommand(text) || !this.isCustomCommand(text))) {
          await this.runCommand(text);
          if (parseSlashCommand(text)?.name === 'resume') await this.offerUnfinishedGoal();
        }
        else if (command !== undefined) await this.runTyped(command);
        else await this.runTurn(text, this.takeInit(text));
        if (this.backgroundNext && !this.exiting) await this.moveToBackground();
        if (this.exiting) break;
      }
    } finally {
      unfollow?.();
      clearTimeout(escapeTimer);
      this.options.signal?.removeEventListener('abort', onOutsideAbort);
      this.running?.abort(this.options.follow ? DETACHING : undefined);
      this.screen.render([]);
      this.screen.release();
      output.write('\x1b[?2004l');
      output.off?.('resize', onResize);
      input.off('data', onData);
      input.setRawMode?.(false);
      input.pause();
      await this.services.close();
    }
    return 0;
  }

  private readPrompt(): Promise<string | undefined> {
    if (this.exiting) return Promise.resolve(undefined);
    const next = this.queued.shift();
    if (next !== undefined) return Promise.resolve(next);
    return new Promise((resolve) => {
      this.submit = resolve;
      this.render();
    });
  }

  private nextKey(signal: AbortSignal): Promise<Key | undefined> {
    if (signal.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const onAbort = () => finish(undefined);
      const finish = (key: Key | undefined) => {
        signal.removeEventListener('abort', onAbort);
        if (this.keyWaiter === finish) this.keyWaiter = undefined;
        resolve(key);
      };
      this.keyWaiter = finish;
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private readonly keyQueue = new KeyQueue(
    (key) => {
      const asked = this.keyWaiter !== undefined;
      this.onKey(key);
      return asked;
    },
    () => this.render(),
  );

  private onKeys(keys: Key[]): void {
    this.keyQueue.push(keys);
  }

  private onKey(key: Key): void {
    if (key.ctrl && key.name === 'c') return this.interrupt(key);
    this.ctrlC.otherKey();
    // Ctrl-O works during a question too: the block being asked about may be the one to unfold.
    if (key.ctrl && key.name === 'o') return this.toggleExpanded();
    // Attached, Ctrl-D detaches even while a question is shown: it stays for another client.
    if (this.options.follow && key.ctrl && key.name === 'd' && this.editor.text === '') return this.exit();
    if (this.keyWaiter) return this.keyWaiter(key);
    if (key.ctrl && key.name === 'd' && this.editor.text === '') {
      if (this.submit) this.exit();
      return;
    }
    if (key.ctrl && key.name === 'z' && this.options.suspend) {
      void this.suspend(this.options.suspend);
      return;
    }
    // Esc stops the running turn (at a question it already answered no and stopped it, above).
    if (key.name === 'escape' && this.turnRunning()) return this.cancelTurn();
    if (key.name === 'tab' && key.shift) {
      this.setMode(nextMode(this.services.conversation().mode, this.modes));
      return;
    }
    if (key.ctrl && key.name === 'l') {
      this.options.output.write('\x1b[2J\x1b[H');
      this.screen.reset();
      return;
    }
    this.hint = [];
    // A pasted image path becomes a chip; the image goes with the prompt that holds it.
    const chip = key.name === 'paste' ? (this.services.imagePaste(key.text ?? '') ?? this.pastes.paste(key.text ?? '')) : undefined;
    const action = this.editor.handle(chip ? { ...key, text: `${chip} ` } : key);
    const mention = action.type === 'complete' ? completeMention(this.editor.text, this.editor.cursor, workspaceLister(this.options.workspace)) : undefined;
    if (mention) {
      this.editor.text = mention.text;
      this.editor.cursor = mention.cursor;
      this.hint = mention.candidates.length ? [this.options.theme.dim(mention.candidates.join('  '))] : [];
    } else if (action.type === 'complete') {
      const completion = completeSlash(this.editor.text, this.services.models(), this.services.customCommands().map((command) => command.name));
      this.editor.set(completion.text);
      this.hint = completion.candidates.length ? [this.options.theme.dim(completion.candidates.join('  '))] : [];
    } else if (action.type === 'submit' && this.goal && parseSlashCommand(action.text)?.name === 'goal') {
      // While a goal runs, /goal and /goal clear act at once instead of waiting their turn.
      this.screen.commit([this.options.theme.cyan(`${PROMPT}${action.text.trim()}`)]);
      this.goalCommand(parseSlashCommand(action.text)!.argument);
    } else if (action.type === 'submit' && this.turnRunning() && AT_ONCE.has(parseSlashCommand(action.text)?.name ?? '')) {
      // /bg and /detach act at once: waiting for the turn would defeat them.
      this.screen.commit([this.options.theme.cyan(`${PROMPT}${action.text.trim()}`)]);
      if (parseSlashCommand(action.text)!.name === 'bg') this.requestBackground();
      else this.detach();
    } else if (action.type === 'submit') {
      const submit = this.submit;
      this.submit = undefined;
      if (submit) submit(action.text);
      else this.queued.push(action.text);
    }
  }

  /** Hands the terminal back to the shell for the suspension, then takes it again and redraws. */
  private async suspend(stop: () => Promise<void>): Promise<void> {
    const { input, output } = this.options;
    this.screen.render([]);
    this.screen.release();
    output.write('\x1b[?2004l');
    input.setRawMode?.(false);
    this.suspended = true;
    try {
      await stop();
    } finally {
      this.suspended = false;
      input.setRawMode?.(true);
      output.write('\x1b[?2004h');
      this.render();
    }
  }

  /** Ctrl-C: see CtrlCPolicy for what it does where. */
  private interrupt(key: Key): void {
    const action = this.ctrlC.press({ approval: this.keyWaiter !== undefined, running: this.turnRunning(), inputEmpty: this.editor.text === '' });
    if (action === 'deny_approval') this.keyWaiter?.(key);
    else if (action === 'cancel_turn') this.cancelTurn();
    else if (action === 'clear_input') this.editor.clear();
    else if (action === 'exit') this.exit();
    // confirm_exit: render() shows the question while the policy is armed.
  }

  /** A turn (or a command) runs: this terminal's own, or, attached, one of the session's it did not start. */
  private turnRunning(): boolean {
    return this.running !== undefined || this.followed !== undefined;
  }

  /** Esc or Ctrl-C during a turn: it stops (attached, the session's turn stops, through the server). */
  private cancelTurn(): void {
    this.view?.markCancelling();
    this.running?.abort();
    this.followed?.abort();
  }

  /** /bg: refused attached or while a goal runs; a running turn stops first, and the server carries it on. */
  private requestBackground(): void {
    const t = this.options.theme;
    if (this.options.follow) return this.screen.commit([t.yellow('This session is in the background already: /detach (or Ctrl-D) leaves it running there.')]);
    if (this.goal || this.nextGoal) return this.screen.commit([t.yellow('A goal runs in this terminal: /goal clear ends it first (vibe-agent --bg --goal "…" pursues one in the background).')]);
    this.backgroundNext = true;
    // A turn of this terminal's (a slash command or a !command is left to finish).
    if (!this.view || !this.running) return;
    this.screen.commit([t.dim('Stopping the turn here: the session server carries it on.')]);
    this.cancelTurn();
  }

  /** /detach: attached, leaves (the session goes on); elsewhere says what to use. */
  private detach(): void {
    if (this.options.follow) return this.exit();
    this.screen.commit([this.options.theme.yellow('/detach leaves a session you attached to (vibe-agent attach); /bg moves this one to the background.')]);
  }

  /**
   * The move /bg asked for, once no turn runs: the services close this terminal's conversation and
   * hand the session to the server; then this terminal leaves. On failure the session stays here.
   */
  private async moveToBackground(): Promise<void> {
    const t = this.options.theme;
    const carryOn = this.stoppedForBackground;
    this.backgroundNext = false;
    this.stoppedForBackground = false;
    // Prompts go with the session; commands typed meanwhile belong to this terminal and go nowhere.
    const typed = this.queued.splice(0);
    const queued = typed.filter((text) => !this.isTerminalCommand(text));
    const left = typed.filter((text) => this.isTerminalCommand(text));
    const before = this.shellContext.splice(0);
    this.screen.commit([t.dim('Moving the session to the background…')]);
    const controller = new AbortController();
    this.running = controller;
    try {
      const lines = await this.services.moveToBackground({
        model: this.conversation.model,
        ...this.modeToHand(),
        carryOn,
        queued: queued.map((text) => this.pastes.expand(text)),
        before,
      });
      this.screen.commit([...lines.map((line, i) => (i === 0 ? t.green(line) : t.dim(line))), ...left.map((text) => t.yellow(`Not run (a command of this terminal): ${text}`))]);
      this.running = undefined;
      this.exit();
    } catch (error) {
      this.queued.unshift(...typed);
      this.shellContext.unshift(...before);
      this.screen.commit([t.red(`✗ /bg: ${(error as Error).message}`), '']);
    } finally {
      this.running = undefined;
    }
  }

  /** Esc or Ctrl-C at a question: the turn stops; prompts queued during it come back to the editor, unsent. */
  private stopTurnAtQuestion(): void {
    this.cancelTurn();
    if (this.queued.length) this.editor.set([...this.queued.splice(0), this.editor.text].filter(Boolean).join('\n'));
  }

  /** A mode chosen by Shift-Tab or /plan: an approved plan's bounds end with it. */
  private setMode(mode: PermissionMode): void {
    const conversation = this.services.conversation();
    if (mode === 'plan' && conversation.mode !== 'plan') this.beforePlan = conversation.mode;
    conversation.setMode(mode, { by: 'terminal' });
  }

  /** /plan: into plan mode, or back to the mode it left. */
  private togglePlan(): string {
    const conversation = this.services.conversation();
    this.setMode(conversation.mode === 'plan' ? this.beforePlan : 'plan');
    return conversation.mode === 'plan'
      ? 'Plan mode: only read-only tools run, and the turn ends with a plan to approve. /plan or Shift+Tab again to leave.'
      : `Plan mode off: ${conversation.mode} mode.`;
  }

  /** The mode and an approved plan's bounds, as /bg hands them to the server. */
  private modeToHand(): { mode: PermissionMode; planScope?: PlanScope } {
    const { mode, planScope } = this.services.conversation();
    return { mode, ...(planScope ? { planScope } : {}) };
  }

  /** The status line's mode, from the conversation's (whoever changed it): shown when not the default or an approved plan bounds the calls. */
  private modeShown(): { mode?: string } {
    const { mode, planScope } = this.services.conversation();
    return mode !== 'ask' || planScope ? { mode: modeLabel(mode, planScope !== undefined) } : {};
  }

  /** Ctrl-O: running subagent blocks redraw; at the prompt, the last turn's are printed expanded. */
  private toggleExpanded(): void {
    this.expanded = !this.expanded;
    if (this.view) return this.view.setExpanded(this.expanded);
    if (!this.expanded || !this.lastSubagents.length) return;
    const { theme: t } = this.options;
    const width = this.screen.width;
    this.screen.commit([t.dim('Subagents of the last turn (Ctrl-O folds them again):'), ...this.lastSubagents.flatMap((block) => childBlockLines(block, true, t, Date.now(), width))]);
  }

  /**
   * After a planning run: the plan's files and commands, and the mode to carry it out in. A
   * chosen mode starts the execution turn at once, bounded by the plan; "keep planning" stays.
   */
  private async approvePlan(plan: string): Promise<void> {
    const t = this.options.theme;
    const scope = parsePlanScope(plan);
    const controller = new AbortController();
    this.running = controller;
    this.approval = planQuestionLines(scope, t);
    let choice;
    try {
      do {
        const next = this.nextKey(controller.signal);
        this.render();
        choice = planChoice(await next);
      } while (choice === undefined);
    } finally {
      this.approval = undefined;
      this.running = undefined;
      this.render();
    }
    if (choice === 'keep' || this.exiting) {
      this.screen.commit([t.dim('? Execute this plan? keep planning (still in plan mode)')]);
      return;
    }
    this.services.conversation().setMode(choice, { by: 'plan_approval', planScope: scope });
    this.screen.commit([`${t.dim('? Execute this plan?')} ${t.green(`yes, in ${choice} mode`)} ${t.dim('· calls outside the plan ask again')}`]);
    this.queued.unshift(EXECUTE_PLAN_PROMPT);
  }

  /** Whether this prompt is the one /init queued. */
  private takeInit(text: string): boolean {
    const init = this.initNext && text === INIT_PROMPT;
    this.initNext = false;
    return init;
  }

  private exit(): void {
    this.exiting = true;
    // Attached, leaving stops this terminal's wait, not the session's turn.
    this.running?.abort(this.options.follow ? DETACHING : undefined);
    const submit = this.submit;
    this.submit = undefined;
    submit?.(undefined);
  }

  /** One prompt to the conversation: its events are rendered, its questions asked here, its plan offered for approval. */
  private async runTurn(text: string, init = false): Promise<void> {
    const t = this.options.theme;
    const shown = init ? '/init: write or improve AGENTS.md' : text;
    this.screen.commit(['', ...shown.split('\n').map((line, i) => `${t.cyan(i === 0 ? PROMPT : '  ')}${t.bold(line)}`), '']);
    this.askedCalls.clear();
    const controller = new AbortController();
    this.running = controller;
    const view = new TurnView((lines) => this.screen.commit(lines), t);
    this.view = view;
    this.events.turn = view;
    this.conversation.startRun();
    view.setExpanded(this.expanded);
    const conversation = this.services.conversation();
    // Followed, the stream and the questions are already taken for the whole session.
    const off = this.options.follow ? () => undefined : conversation.subscribe((event) => this.events.handle(event));
    const detach = this.options.follow ? () => undefined : conversation.questions.attach((question, signal) => this.ask(question.request, signal));
    // `!command` output goes with this prompt; a refused prompt leaves it for the next.
    const before = this.shellContext.splice(0);
    let plan: string | undefined;
    const ticker = setInterval(() => this.render(), TICK_MS);
    try {
      const outcome = await conversation.prompt(this.pastes.expand(text), {
        signal: controller.signal,
        model: this.conversation.model,
        imagePaths: this.services.imagePaths(text),
        ...(before.length ? { before } : {}),
        ...(init ? { authorize: initAuthorize(this.services.permissions, conversation.questions.ask, (id) => this.askedCalls.has(id)) } : {}),
      });
      if (outcome.reason === 'refused') this.shellContext.unshift(...before);
      if (outcome.plan) plan = outcome.plan;
      if (this.backgroundNext && outcome.reason === 'aborted') this.stoppedForBackground = true;
    } catch (error) {
      this.screen.commit([t.red(`✗ Unexpected error: ${(error as Error).message}`)]);
    } finally {
      this.endTurn([off, detach, () => clearInterval(ticker)], view, conversation);
    }
    if (plan && !this.exiting && !this.backgroundNext) await this.approvePlan(plan);
  }

  /**
   * The conversation's whole stream, rendered from its first event: a run this terminal did not
   * start (the session's own work, another client's prompt) gets a turn view of its own, headed by
   * its prompt, and ends at its stop; the questions are asked here whenever they come.
   */
  private follow(): () => void {
    const t = this.options.theme;
    const conversation = this.services.conversation();
    let own: TurnView | undefined;
    const off = conversation.subscribe(
      (event) => {
        if (event.type === 'run_start' && !this.view) {
          this.screen.commit(['', ...event.input.split('\n').map((line, i) => `${t.cyan(i === 0 ? PROMPT : '  ')}${t.bold(visibleText(line))}`), '']);
          own = new TurnView((lines) => this.screen.commit(lines), t);
          own.setExpanded(this.expanded);
          this.view = own;
          this.events.turn = own;
          this.conversation.startRun();
          const followed = new AbortController();
          followed.signal.addEventListener('abort', () => conversation.interrupt(), { once: true });
          this.followed = followed;
        }
        this.events.handle(event);
        // One run at a time in a session: its top-level stop ends whichever was running.
        if (event.type === 'stop' && event.agent === undefined) this.followed = undefined;
        if (event.type === 'stop' && own && this.view === own) {
          this.lastSubagents = own.subagents();
          this.view = undefined;
          this.events.turn = undefined;
          own = undefined;
          this.screen.commit(['']);
        }
      },
      { after: 0 },
    );
    const detach = conversation.questions.attach((question, signal) => this.ask(question.request, signal));
    return () => {
      off();
      detach();
    };
  }

  /** /goal CONDITION starts one (after this command), /goal shows it, /goal clear ends it. */
  private goalCommand(argument: string): void {
    const t = this.options.theme;
    const goal = this.goal;
    if (argument === 'clear') {
      if (!goal) return this.screen.commit(['No goal to clear.']);
      goal.cleared = true;
      goal.controller.abort();
      return this.screen.commit([t.dim('Clearing the goal: the running turn stops.')]);
    }
    if (!argument) return this.screen.commit(goal ? goal.lines(t) : ['No goal. /goal CONDITION starts one: the agent works until an independent judge says it holds.']);
    if (goal || this.nextGoal) return this.screen.commit([t.yellow('One goal per session: /goal clear ends this one first.')]);
    this.nextGoal = { condition: argument };
  }

  /** A resumed session with an unfinished goal: asks before continuing it, with what is left of each cap. */
  private async offerUnfinishedGoal(): Promise<void> {
    const open = this.services.goals.unfinished();
    if (!open || this.exiting) return;
    const t = this.options.theme;
    const controller = new AbortController();
    this.running = controller;
    try {
      const lines = [`${t.yellow('?')} ${t.bold('This session has an unfinished goal:')} ${visibleText(open.start.condition)}`, `  Left: ${capsLeft(open)}`, `  Continue it? ${t.bold('y')} yes   ${t.bold('n')} no ${t.dim('(Enter, Esc = no)')}`];
      if (await this.confirm(lines, controller.signal, { yes: 'continued', no: 'not continued (no)' })) this.nextGoal = { condition: open.start.condition, resumed: open };
    } finally {
      this.running = undefined;
    }
  }

  /** Pursues a goal through the conversation core (src/conversation/goal): its turns render like any, its notices as lines. */
  private async runGoal(condition: string, resumed: UnfinishedGoal | undefined): Promise<void> {
    const t = this.options.theme;
    let setup;
    try {
      setup = await this.services.goals.setup();
    } catch (error) {
      this.screen.commit([t.red(`✗ /goal: ${(error as Error).message}`), '']);
      return;
    }
    const caps = resumed ? resumed.start.caps : setup.caps;
    const goal = new ActiveGoal(condition, caps, resumed?.spent);
    this.goal = goal;
    this.running = goal.controller;
    const view = new TurnView((lines) => this.screen.commit(lines), t);
    this.view = view;
    this.events.turn = view;
    this.conversation.startRun();
    view.setExpanded(this.expanded);
    const conversation = this.services.conversation();
    const off = conversation.subscribe((event) => {
      goal.track(event);
      const lines = goalNoticeLines(event, t);
      if (lines) this.screen.commit(lines);
      else this.events.handle(event);
    });
    const detach = conversation.questions.attach((question, signal) => this.ask(question.request, signal));
    const ticker = setInterval(() => this.render(), TICK_MS);
    try {
      const host = { prompt: (text: string, options: { signal?: AbortSignal; refuseTools?: string }) => conversation.prompt(text, { ...options, model: this.conversation.model }), subscribe: conversation.subscribe.bind(conversation), history: () => conversation.history(), note: conversation.note.bind(conversation) };
      await pursueGoal(host, { condition, ...setup, caps, ...(resumed?.spent ? { resumed: resumed.spent } : {}), signal: goal.controller.signal, cleared: () => goal.cleared });
    } catch (error) {
      this.screen.commit([t.red(`✗ Unexpected error: ${(error as Error).message}`)]);
    } finally {
      this.goal = undefined;
      this.endTurn([off, detach, () => clearInterval(ticker)], view, conversation);
    }
  }

  /** After a turn (or a goal's turns): listeners off, the view's subagents kept, the history taken from the conversation. */
  private endTurn(stops: Array<() => void>, view: { subagents(): ChildBlock[] }, conversation: Pick<TuiConversation, 'history'>): void {
    for (const stop of stops) stop();
    this.running = undefined;
    this.lastSubagents = view.subagents();
    this.view = undefined;
    this.events.turn = undefined;
    this.conversation.messages = [...conversation.history()];
    this.screen.commit(['']);
  }

  /** A built-in /command or a `!command`: run by this terminal, not sent to the model. */
  private isTerminalCommand(text: string): boolean {
    return (text.trim().startsWith('/') && (isBuiltinCommand(text) || !this.isCustomCommand(text))) || typedCommand(text) !== undefined;
  }

  private isCustomCommand(text: string): boolean {
    const name = parseSlashCommand(text)?.name;
    return this.services.customCommands().some((command) => command.name === name);
  }

  private async runCommand(text: string): Promise<void> {
    const t = this.options.theme;
    this.screen.commit([t.cyan(`${PROMPT}${text.trim()}`)]);
    const controller = new AbortController();
    this.running = controller;
    try {
      await runSlashCommand(text, {
        theme: t,
        services: this.services,
        model: this.conversation.model,
        messages: [...this.services.conversation().history()],
        usage: this.conversation.usage,
        cost: this.conversation.cost(),
        tools: this.options.tools.names(),
        print: (lines) => this.screen.commit(lines),
        setModel: (model) => (this.conversation.model = model),
        togglePlan: () => this.togglePlan(),
        setMessages: (messages) => {
          this.services.conversation().setHistory(messages);
          this.conversation.replaceMessages(messages);
        },
        carry: (spent) => this.conversation.carry(spent),
        startOver: () => {
          this.conversation.clear([]);
          this.shellContext.length = 0;
        },
        exit: () => this.exit(),
        background: () => this.requestBackground(),
        detach: () => this.detach(),
        init: () => {
          this.initNext = true;
          this.queued.unshift(INIT_PROMPT);
        },
        signal: controller.signal,
        choose: (title, items, initial) => this.choose(title, items, initial, controller.signal),
        confirm: (lines) => this.confirm(lines, controller.signal),
        goal: (argument) => this.goalCommand(argument),
      });
    } finally {
      this.running = undefined;
    }
    if (!this.exiting) this.screen.commit(['']);
  }

  /** `!command`: run now, shown, and handed to the model with the next prompt (the model is not called). */
  private async runTyped(command: string): Promise<void> {
    const t = this.options.theme;
    this.screen.commit(['', `${t.magenta('! ')}${t.bold(command)}`]);
    const controller = new AbortController();
    this.running = controller;
    try {
      const typed = this.services.typedPermissions;
      const { mode, planScope } = this.services.conversation();
      typed.setMode(mode, planScope);
      const result = await runTypedCommand(command, { tools: this.options.tools, authorize: typed, workspace: this.options.workspace, signal: controller.signal });
      if (controller.signal.aborted) {
        this.screen.commit([t.yellow('⊘ Cancelled; nothing goes to the model.')]);
        return;
      }
      if (!result.ran) {
        this.screen.commit([t.red(`✗ ${result.reason}`)]);
        return;
      }
      this.shellContext.push(typedCommandBlock(command, result.output));
      const lines = result.output.split('\n');
      const shown = lines.slice(0, TYPED_OUTPUT_LINES).map((line) => `  ${result.failed ? t.red(line) : t.dim(line)}`);
      const more = lines.length > TYPED_OUTPUT_LINES ? [t.dim(`  … ${lines.length - TYPED_OUTPUT_LINES} more lines`)] : [];
      this.screen.commit([...shown, ...more, t.dim('  ⎿ goes to the model with your next prompt')]);
    } finally {
      this.running = undefined;
      this.screen.commit(['']);
    }
  }

  /** A list in the live area: ↑/↓ move, Enter picks, Esc or Ctrl-C cancels. */
  private async choose(title: string, items: string[], initial: number, signal: AbortSignal): Promise<number | undefined> {
    const t = this.options.theme;
    let index = Math.max(0, Math.min(items.length - 1, initial));
    let picked: number | undefined;
    let typed = '';
    try {
      for (;;) {
        this.approval = [
          `${t.yellow('?')} ${t.bold(title)}`,
          ...items.map((item, i) => (i === index ? `${t.cyan('›')}${t.bold(item.replace(/^ /, ''))}` : item)),
          t.dim('  ↑/↓ or its number choose · Enter rewinds · Esc cancels'),
        ];
        const next = this.nextKey(signal);
        this.render();
        const key = await next;
        if (!key || key.name === 'escape' || (key.ctrl && key.name === 'c')) break;
        const digit = key.name === 'char' && !key.ctrl && /^[0-9]$/.test(key.text ?? '') ? key.text! : undefined;
        if (digit !== undefined) {
          const number = typeNumber(typed, digit, items.length);
          typed = number.typed;
          if (number.index !== undefined) index = number.index;
          continue;
        }
        typed = '';
        if (key.name === 'up') index = Math.max(0, index - 1);
        else if (key.name === 'down') index = Math.min(items.length - 1, index + 1);
        else if (key.name === 'return') {
          picked = index;
          break;
        }
      }
    } finally {
      this.approval = undefined;
      this.render();
    }
    this.screen.commit([`${t.dim(`? ${title}`)} ${picked === undefined ? t.yellow('cancelled') : t.green(items[picked]!.trim())}`]);
    return picked;
  }

  /** A yes/no question in the live area: y is yes; n, Enter, Esc and Ctrl-C are no. */
  private async confirm(lines: string[], signal: AbortSignal, words = { yes: 'overwritten', no: 'kept (no)' }): Promise<boolean> {
    const t = this.options.theme;
    let yes = false;
    this.approval = lines;
    try {
      for (;;) {
        const next = this.nextKey(signal);
        this.render();
        const key = await next;
        if (!key || key.name === 'escape' || key.name === 'return' || (key.ctrl && key.name === 'c')) break;
        const text = key.name === 'char' && !key.ctrl ? (key.text ?? '').toLowerCase() : '';
        if (text === 'y' || text === 'n') {
          yes = text === 'y';
          break;
        }
      }
    } finally {
      this.approval = undefined;
      this.render();
    }
    this.screen.commit([...lines.slice(0, -1).map((line) => t.dim(stripAnsi(line))), `  ${yes ? t.yellow(words.yes) : t.green(words.no)}`]);
    return yes;
  }

  private render(): void {
    if (this.exiting || this.suspended) return;
    const { theme: t } = this.options;
    const width = this.screen.width;
    const rows = this.screen.wrap([...(this.view?.live(width, this.options.output.rows ?? 24) ?? []), ...(this.approval ?? [])]);
    let cursor: { row: number; col: number } | undefined;
    if (!this.keyWaiter) {
      // While a turn runs the prompt stays editable: what is sent then is queued for after it.
      const layout = this.editor.layout(width, this.submit ? t.cyan(PROMPT) : t.dim(PROMPT), PROMPT.length);
      const pinned = this.screen.wrap(this.todos.lines(t));
      cursor = { row: rows.length + pinned.length + layout.cursor.row, col: layout.cursor.col };
      const queued = this.queued.length ? [t.dim(`${this.queued.length} queued: runs when this turn ends`)] : [];
      const confirmExit = this.ctrlC.exitArmed ? [t.yellow('Press Ctrl-C again to exit')] : [];
      rows.push(...pinned, ...layout.rows, ...this.screen.wrap([...confirmExit, ...this.hint, ...queued]));
    }
    const state = this.approval ? 'approval' : this.turnRunning() ? 'working' : undefined;
    const background = this.services.backgroundJobs().filter((job) => job.running).length;
    const subagents = this.view ? this.view.subagents().length > 0 : this.lastSubagents.length > 0;
    rows.push(
      renderStatusLine(
        {
          ...this.conversation.status(this.options.maxTurns, state),
          ...this.modeShown(),
          ...(background ? { background } : {}),
          ...(subagents ? { expandHint: this.expanded ? 'Ctrl-O folds' : 'Ctrl-O expands' } : {}),
          ...(this.goal ? { goal: this.goal.status() } : {}),
        },
        width,
        t,
      ),
    );
    this.screen.render(rows, cursor);
  }
}
