import type { AgentEvent, StopReason } from '../../contracts/events.js';
import { withSubagents, type SubagentOptions } from '../../agents/subagents.js';
import type { AgentOptions } from '../../core/agent-options.js';
import { runAgent } from '../../core/loop.js';
import { TodoPin } from './todo-pin.js';
import type { ImageRef, Message } from '../../contracts/messages.js';
import { createPermissionPolicy, type PermissionMode, type PermissionPolicy } from '../../permissions/permission-policy.js';
import { parsePlanScope } from '../../permissions/plan-scope.js';
import type { Provider } from '../../contracts/provider.js';
import { systemPromptFor } from '../../core/system-prompt.js';
import { withSystemPrompt } from '../../session/session-store.js';
import { childBlockLines, type ChildBlock } from './child-blocks.js';
import { EXECUTE_PLAN_PROMPT, modeCycle, modeLabel, nextMode, planChoice, planQuestionLines } from './plan-mode.js';
import type { ToolRegistry } from '../../tools/registry.js';
import { createApprovalPrompt } from './approval-prompt.js';
import { PastedTexts } from '../prompt/pasted-text.js';
import { earlierTurnLines } from './earlier-turns.js';
import type { AskApproval } from '../../tools/approval.js';
import type { Authorize } from '../../contracts/tool.js';
import { INIT_PROMPT, initAuthorize } from './init-command.js';
import { ConversationState } from './conversation-state.js';
import { CtrlCPolicy } from './ctrl-c.js';
import { InputEditor } from './input-editor.js';
import type { InputHistory } from './input-history.js';
import { ESCAPE_WAIT_MS, KeyParser, type Key } from './key-parser.js';
import { KeyQueue, typeNumber } from './key-queue.js';
import { LiveScreen } from './live-screen.js';
import type { InteractiveServices } from './services.js';
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
  provider: Provider;
  model: string;
  tools: ToolRegistry;
  system: string;
  workspace: string;
  maxTurns: number;
  temperature: number;
  /** Per-run spending limit in US dollars (the `cost_limit` brake). */
  maxCost?: number;
  /** The task tool and the tree budget (see withSubagents); absent: no subagents. */
  subagents?: SubagentOptions;
  history?: InputHistory;
  services?: InteractiveServices;
  /** Within this long after a Ctrl-C cancelled a turn, a second one exits (default 1000 ms). */
  doubleInterruptMs?: number;
  /** The conversation to continue (a resumed session). */
  messages?: Message[];
  /** Ctrl-Z: stops the process until it is continued (the terminal is handed back meanwhile). */
  suspend?: () => Promise<void>;
  /** Ends the session from outside (SIGTERM, or SIGINT sent by another process). */
  signal?: AbortSignal;
}

const PROMPT = '› ';
const TICK_MS = 80;
/** A `!command`'s output shown on screen; the model gets it all (capped losslessly by the registry). */
const TYPED_OUTPUT_LINES = 30;

/**
 * The interactive session. Each user turn is one `runAgent` call given the conversation so far;
 * this class only routes keys, renders events and runs slash commands: no loop logic.
 */
export class InteractiveSession {
  private readonly screen: LiveScreen;
  private readonly parser = new KeyParser();
  private readonly editor: InputEditor;
  private readonly services: InteractiveServices;
  private readonly authorize: PermissionPolicy;
  /** The same rules for a command the user typed after `!`: typing it is the answer to "allow?". */
  private readonly typedAuthorize: PermissionPolicy;
  private readonly ask: AskApproval;
  /** The calls the user was asked about in this turn (/init asks about its write when the rules did not). */
  private readonly askedCalls = new Set<string>();
  /** The next turn's own authorization (/init's), instead of the session's. */
  private turnAuthorize: Authorize | undefined;
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
  /** Between Ctrl-Z and the continue: nothing is drawn. */
  private suspended = false;

  constructor(private readonly options: InteractiveOptions) {
    this.screen = new LiveScreen(options.output, { colour: options.theme.enabled });
    this.editor = new InputEditor(options.history);
    this.services = options.services ?? {};
    this.conversation = new ConversationState(options.model, options.messages ?? [], this.services);
    this.todos = new TodoPin(options.messages);
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
    const ask: AskApproval = (request, signal) => {
      this.askedCalls.add(request.call.id);
      return prompt(request, signal);
    };
    this.ask = ask;
    this.authorize = this.services.authorize ? this.services.authorize(ask) : createPermissionPolicy({ mode: 'ask', ask });
    const typed = async () => 'yes' as const;
    this.typedAuthorize = this.services.authorize ? this.services.authorize(typed) : createPermissionPolicy({ mode: 'ask', ask: typed });
    this.modes = modeCycle(this.authorize.mode);
    if (this.authorize.mode !== 'plan') this.beforePlan = this.authorize.mode;
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
    this.options.signal?.addEventListener('abort', onOutsideAbort, { once: true });
    input.setRawMode?.(true);
    input.on('data', onData);
    input.resume();
    output.on?.('resize', onResize);
    output.write('\x1b[?2004h');
    try {
      this.screen.commit([
        `${t.bold('vibe-agent')} ${t.dim(`· ${this.options.provider.name} · ${this.conversation.model} · ${this.options.workspace}`)}`,
        ...(this.conversation.messages.length ? [...earlierTurnLines(this.conversation.messages, t, this.screen.width), '', t.dim(`Continuing a conversation of ${this.conversation.messages.length} messages.`)] : []),
        t.dim('/help for commands · Enter sends · Shift+Enter or \\ for a new line · Shift+Tab cycles modes · Ctrl-C cancels · Ctrl-D exits'),
      ]);
      this.services.setNotify?.((text) => this.screen.commit([t.yellow(`⚠ ${text}`)]));
      if (this.options.signal?.aborted) this.exit();
      for (;;) {
        const text = await this.readPrompt();
        if (text === undefined || this.exiting) break;
        const command = typedCommand(text);
        if (text.trim().startsWith('/') && (isBuiltinCommand(text) || !this.isCustomCommand(text))) await this.runCommand(text);
        else if (command !== undefined) await this.runTyped(command);
        else await this.runTurn(text);
        if (this.exiting) break;
      }
    } finally {
      clearTimeout(escapeTimer);
      this.options.signal?.removeEventListener('abort', onOutsideAbort);
      this.running?.abort();
      this.screen.render([]);
      this.screen.release();
      output.write('\x1b[?2004l');
      output.off?.('resize', onResize);
      input.off('data', onData);
      input.setRawMode?.(false);
      input.pause();
      this.services.close?.();
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
    if (this.keyWaiter) return this.keyWaiter(key);
    if (key.ctrl && key.name === 'd' && this.editor.text === '') {
      if (this.submit) this.exit();
      return;
    }
    if (key.ctrl && key.name === 'z' && this.options.suspend) {
      void this.suspend(this.options.suspend);
      return;
    }
    if (key.name === 'tab' && key.shift) {
      this.setMode(nextMode(this.authorize.mode, this.modes));
      return;
    }
    if (key.ctrl && key.name === 'l') {
      this.options.output.write('\x1b[2J\x1b[H');
      this.screen.reset();
      return;
    }
    this.hint = [];
    // A pasted image path becomes a chip; the image goes with the prompt that holds it.
    const chip = key.name === 'paste' ? (this.services.imagePaste?.(key.text ?? '') ?? this.pastes.paste(key.text ?? '')) : undefined;
    const action = this.editor.handle(chip ? { ...key, text: `${chip} ` } : key);
    const mention = action.type === 'complete' ? completeMention(this.editor.text, this.editor.cursor, workspaceLister(this.options.workspace)) : undefined;
    if (mention) {
      this.editor.text = mention.text;
      this.editor.cursor = mention.cursor;
      this.hint = mention.candidates.length ? [this.options.theme.dim(mention.candidates.join('  '))] : [];
    } else if (action.type === 'complete') {
      const completion = completeSlash(this.editor.text, this.services.models?.() ?? [], (this.services.customCommands?.() ?? []).map((command) => command.name));
      this.editor.set(completion.text);
      this.hint = completion.candidates.length ? [this.options.theme.dim(completion.candidates.join('  '))] : [];
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
    const action = this.ctrlC.press({ approval: this.keyWaiter !== undefined, running: this.running !== undefined, inputEmpty: this.editor.text === '' });
    if (action === 'deny_approval') this.keyWaiter?.(key);
    else if (action === 'cancel_turn') {
      this.view?.markCancelling();
      this.running?.abort();
    } else if (action === 'clear_input') this.editor.clear();
    else if (action === 'exit') this.exit();
    // confirm_exit: render() shows the question while the policy is armed.
  }

  /** Esc or Ctrl-C at a question: the turn stops; prompts queued during it come back to the editor, unsent. */
  private stopTurnAtQuestion(): void {
    this.view?.markCancelling();
    this.running?.abort();
    if (this.queued.length) this.editor.set([...this.queued.splice(0), this.editor.text].filter(Boolean).join('\n'));
  }

  /** A mode chosen by Shift-Tab or /plan: an approved plan's bounds end with it. */
  private setMode(mode: PermissionMode): void {
    if (mode === 'plan' && this.authorize.mode !== 'plan') this.beforePlan = this.authorize.mode;
    this.authorize.setMode(mode);
  }

  /** /plan: into plan mode, or back to the mode it left. */
  private togglePlan(): string {
    this.setMode(this.authorize.mode === 'plan' ? this.beforePlan : 'plan');
    return this.authorize.mode === 'plan'
      ? 'Plan mode: only read-only tools run, and the turn ends with a plan to approve. /plan or Shift+Tab again to leave.'
      : `Plan mode off: ${this.authorize.mode} mode.`;
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
    this.authorize.setMode(choice, scope);
    this.screen.commit([`${t.dim('? Execute this plan?')} ${t.green(`yes, in ${choice} mode`)} ${t.dim('· calls outside the plan ask again')}`]);
    this.queued.unshift(EXECUTE_PLAN_PROMPT);
  }

  private exit(): void {
    this.exiting = true;
    this.running?.abort();
    const submit = this.submit;
    this.submit = undefined;
    submit?.(undefined);
  }

  private async runTurn(text: string): Promise<void> {
    const t = this.options.theme;
    const shown = text === INIT_PROMPT ? '/init: write or improve AGENTS.md' : text;
    this.screen.commit(['', ...shown.split('\n').map((line, i) => `${t.cyan(i === 0 ? PROMPT : '  ')}${t.bold(line)}`), '']);
    const authorize = this.turnAuthorize ?? this.authorize;
    this.turnAuthorize = undefined;
    this.askedCalls.clear();
    const controller = new AbortController();
    this.running = controller;
    const view = new TurnView((lines) => this.screen.commit(lines), t);
    this.view = view;
    this.conversation.startRun();
    view.setExpanded(this.expanded);
    const planning = this.authorize.mode === 'plan';
    let plan: string | undefined;
    const ticker = setInterval(() => this.render(), TICK_MS);
    try {
      const long = await this.pastes.prepare(text, this.options.tools.outputs);
      if (long.note) this.screen.commit([t.dim(`  ⎿ ${long.note}`)]);
      const started = this.services.startPrompt ? await this.services.startPrompt(long.text, { authorize, signal: controller.signal }) : { ok: true as const, prompt: long.text, model: undefined };
      if (!started.ok) {
        this.screen.commit([t.red(`✗ ${started.reason}`)]);
        return;
      }
      if (started.notes?.length) this.screen.commit(started.notes.map((note) => t.dim(`  ⎿ ${note}`)));
      let input: string | undefined = [...this.shellContext.splice(0), started.prompt].join('\n\n');
      for (let round = 0; input !== undefined; round++) {
        const outcome = await this.runOnce(view, { input, model: started.model, images: round === 0 ? started.images : undefined, planning, signal: controller.signal, authorize });
        if (outcome.plan) plan = outcome.plan;
        // A Stop hook that blocks sends the agent back to work with its reason, a bounded number of times.
        input = this.services.afterRun && !this.exiting ? await this.services.afterRun(outcome.reason, round) : undefined;
        if (input !== undefined) this.screen.commit(['', t.dim(`↻ a Stop hook sent the agent back to work: ${input.split('\n')[0]}`), '']);
      }
    } catch (error) {
      this.screen.commit([t.red(`✗ Unexpected error: ${(error as Error).message}`)]);
    } finally {
      clearInterval(ticker);
      this.running = undefined;
      this.lastSubagents = view.subagents();
      this.view = undefined;
      this.screen.commit(['']);
    }
    if (plan && !this.exiting) await this.approvePlan(plan);
  }

  /** One run of the loop from `input` on the conversation so far; the conversation then holds its messages. */
  private async runOnce(view: TurnView, run: { input: string; model: string | undefined; images: ImageRef[] | undefined; planning: boolean; signal: AbortSignal; authorize: Authorize }): Promise<{ reason: StopReason; plan?: string }> {
    const options: AgentOptions = {
      provider: this.options.provider,
      model: run.model ?? this.conversation.model,
      input: run.input,
      ...(run.images?.length ? { images: run.images } : {}),
      messages: this.historyFor(run.planning),
      tools: this.options.tools,
      system: this.systemFor(run.planning),
      ...(run.planning ? { plan: true } : {}),
      maxTurns: this.options.maxTurns,
      temperature: this.options.temperature,
      ...(this.options.maxCost !== undefined ? { maxCost: this.options.maxCost } : {}),
      workspace: this.options.workspace,
      signal: run.signal,
      authorize: run.authorize,
      ...(this.services.prepareMessages ? { prepareMessages: this.services.prepareMessages } : {}),
      ...(this.services.cacheWatch ? { cacheWatch: this.services.cacheWatch } : {}),
      ...(this.services.leftOutNotes ? { leftOutNotes: this.services.leftOutNotes } : {}),
      ...(this.services.onContextOverflow ? { onContextOverflow: this.services.onContextOverflow } : {}),
      ...(this.services.contextForAgent ? { contextForAgent: this.services.contextForAgent } : {}),
    };
    const agentRun = runAgent(this.options.subagents ? withSubagents(options, this.options.subagents) : options);
    const generator = this.services.wrapRun ? this.services.wrapRun(agentRun) : agentRun;
    let reason: StopReason = 'aborted';
    let plan: string | undefined;
    for (;;) {
      const next = await generator.next();
      if (next.done) {
        this.conversation.messages = next.value.messages;
        return { reason, ...(plan ? { plan } : {}) };
      }
      this.observe(next.value);
      if (next.value.type === 'stop' && next.value.agent === undefined) {
        reason = next.value.reason;
        if (next.value.reason === 'plan') plan = next.value.plan;
      }
      this.conversation.track(next.value);
      this.todos.track(next.value);
      view.handle(next.value, this.screen.width);
      this.render();
    }
  }

  private systemFor(planning: boolean): string {
    return systemPromptFor(this.options.system, planning);
  }

  /** The conversation with the system prompt of this run's mode: entering or leaving plan mode swaps it. */
  private historyFor(planning: boolean): Message[] {
    const messages = this.conversation.messages;
    const first = messages[0];
    const wanted = this.systemFor(planning);
    const ours = first?.role === 'system' && (first.content === this.systemFor(true) || first.content === this.systemFor(false));
    return ours && first.content !== wanted ? withSystemPrompt(messages, wanted) : messages;
  }

  /** Hands an event to the services; one that fails (the session store) is shown, not fatal to the turn. */
  private observe(event: AgentEvent): void {
    try {
      this.services.onEvent?.(event);
    } catch (error) {
      this.screen.commit([this.options.theme.yellow(`⚠ ${(error as Error).message}`)]);
    }
  }

  private isCustomCommand(text: string): boolean {
    const name = parseSlashCommand(text)?.name;
    return (this.services.customCommands?.() ?? []).some((command) => command.name === name);
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
        messages: this.conversation.messages,
        usage: this.conversation.usage,
        cost: this.conversation.cost(),
        tools: this.options.tools.names(),
        print: (lines) => this.screen.commit(lines),
        setModel: (model) => (this.conversation.model = model),
        togglePlan: () => this.togglePlan(),
        setMessages: (messages) => this.conversation.replaceMessages(messages),
        carry: (spent) => this.conversation.carry(spent),
        startOver: (messages) => {
          this.conversation.clear(messages);
          this.shellContext.length = 0;
        },
        exit: () => this.exit(),
        init: () => {
          this.turnAuthorize = initAuthorize(this.authorize, this.ask, (id) => this.askedCalls.has(id));
          this.queued.unshift(INIT_PROMPT);
        },
        signal: controller.signal,
        choose: (title, items, initial) => this.choose(title, items, initial, controller.signal),
        confirm: (lines) => this.confirm(lines, controller.signal),
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
      this.typedAuthorize.setMode(this.authorize.mode, this.authorize.planScope);
      const result = await runTypedCommand(command, { tools: this.options.tools, authorize: this.typedAuthorize, workspace: this.options.workspace, signal: controller.signal });
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
  private async confirm(lines: string[], signal: AbortSignal): Promise<boolean> {
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
    this.screen.commit([...lines.slice(0, -1).map((line) => t.dim(stripAnsi(line))), `  ${yes ? t.yellow('overwritten') : t.green('kept (no)')}`]);
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
    const state = this.approval ? 'approval' : this.running ? 'working' : undefined;
    const background = this.services.backgroundJobs?.().filter((job) => job.running).length;
    const subagents = this.view ? this.view.subagents().length > 0 : this.lastSubagents.length > 0;
    rows.push(
      renderStatusLine(
        {
          ...this.conversation.status(this.options.maxTurns, state),
          ...(this.authorize.mode !== 'ask' || this.authorize.planScope ? { mode: modeLabel(this.authorize.mode, this.authorize.planScope !== undefined) } : {}),
          ...(background ? { background } : {}),
          ...(subagents ? { expandHint: this.expanded ? 'Ctrl-O folds' : 'Ctrl-O expands' } : {}),
        },
        width,
        t,
      ),
    );
    this.screen.render(rows, cursor);
  }
}
