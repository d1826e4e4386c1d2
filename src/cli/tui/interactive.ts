import type { AgentEvent } from '../../contracts/events.js';
import { withSubagents, type SubagentOptions } from '../../agents/subagents.js';
import type { AgentOptions } from '../../core/agent-options.js';
import { runAgent } from '../../core/loop.js';
import { TodoPin } from './todo-pin.js';
import type { Message } from '../../contracts/messages.js';
import { createPermissionPolicy } from '../../permissions/permission-policy.js';
import type { Provider } from '../../contracts/provider.js';
import type { Authorize } from '../../contracts/tool.js';
import type { ToolRegistry } from '../../tools/registry.js';
import { createApprovalPrompt } from './approval-prompt.js';
import { ConversationState } from './conversation-state.js';
import { CtrlCPolicy } from './ctrl-c.js';
import { InputEditor } from './input-editor.js';
import type { InputHistory } from './input-history.js';
import { KeyParser, type Key } from './key-parser.js';
import { LiveScreen } from './live-screen.js';
import type { InteractiveServices } from './services.js';
import { completeSlash, isBuiltinCommand, parseSlashCommand, runSlashCommand } from './slash-commands.js';
import { renderStatusLine } from './status-line.js';
import { TurnView } from './turn-view.js';
import type { Theme } from '../display/theme.js';

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
const ESCAPE_WAIT_MS = 30;

/**
 * The interactive session. Each user turn is one `runAgent` call given the conversation so far;
 * this class only routes keys, renders events and runs slash commands: no loop logic.
 */
export class InteractiveSession {
  private readonly screen: LiveScreen;
  private readonly parser = new KeyParser();
  private readonly editor: InputEditor;
  private readonly services: InteractiveServices;
  private readonly authorize: Authorize;
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
    const ask = createApprovalPrompt(
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
    );
    this.authorize = this.services.authorize ? this.services.authorize(ask) : createPermissionPolicy({ mode: 'ask', ask });
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
        ...(this.conversation.messages.length ? [t.dim(`Continuing a conversation of ${this.conversation.messages.length} messages.`)] : []),
        t.dim('/help for commands · Enter sends · Shift+Enter or \\ for a new line · Ctrl-C cancels · Ctrl-D exits'),
      ]);
      this.services.setNotify?.((text) => this.screen.commit([t.yellow(`⚠ ${text}`)]));
      if (this.options.signal?.aborted) this.exit();
      for (;;) {
        const text = await this.readPrompt();
        if (text === undefined || this.exiting) break;
        if (text.trim().startsWith('/') && (isBuiltinCommand(text) || !this.isCustomCommand(text))) await this.runCommand(text);
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

  private onKeys(keys: Key[]): void {
    for (const key of keys) this.onKey(key);
    this.render();
  }

  private onKey(key: Key): void {
    if (key.ctrl && key.name === 'c') return this.interrupt(key);
    this.ctrlC.otherKey();
    if (this.keyWaiter) return this.keyWaiter(key);
    if (key.ctrl && key.name === 'd' && this.editor.text === '') {
      if (this.submit) this.exit();
      return;
    }
    if (key.ctrl && key.name === 'z' && this.options.suspend) {
      void this.suspend(this.options.suspend);
      return;
    }
    if (key.ctrl && key.name === 'l') {
      this.options.output.write('\x1b[2J\x1b[H');
      this.screen.reset();
      return;
    }
    this.hint = [];
    // A pasted image path becomes a chip; the image goes with the prompt that holds it.
    const chip = key.name === 'paste' ? this.services.imagePaste?.(key.text ?? '') : undefined;
    const action = this.editor.handle(chip ? { ...key, text: `${chip} ` } : key);
    if (action.type === 'complete') {
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

  private exit(): void {
    this.exiting = true;
    this.running?.abort();
    const submit = this.submit;
    this.submit = undefined;
    submit?.(undefined);
  }

  private async runTurn(text: string): Promise<void> {
    const t = this.options.theme;
    this.screen.commit(['', ...text.split('\n').map((line, i) => `${t.cyan(i === 0 ? PROMPT : '  ')}${t.bold(line)}`), '']);
    const controller = new AbortController();
    this.running = controller;
    const view = new TurnView((lines) => this.screen.commit(lines), t);
    this.view = view;
    this.conversation.startRun();
    const ticker = setInterval(() => this.render(), TICK_MS);
    try {
      const started = this.services.startPrompt ? await this.services.startPrompt(text, { authorize: this.authorize, signal: controller.signal }) : { ok: true as const, prompt: text, model: undefined };
      if (!started.ok) {
        this.screen.commit([t.red(`✗ ${started.reason}`)]);
        return;
      }
      const options: AgentOptions = {
        provider: this.options.provider,
        model: started.model ?? this.conversation.model,
        input: started.prompt,
        ...(started.images?.length ? { images: started.images } : {}),
        messages: this.conversation.messages,
        tools: this.options.tools,
        system: this.options.system,
        maxTurns: this.options.maxTurns,
        temperature: this.options.temperature,
        ...(this.options.maxCost !== undefined ? { maxCost: this.options.maxCost } : {}),
        workspace: this.options.workspace,
        signal: controller.signal,
        authorize: this.authorize,
        ...(this.services.prepareMessages ? { prepareMessages: this.services.prepareMessages } : {}),
        ...(this.services.onContextOverflow ? { onContextOverflow: this.services.onContextOverflow } : {}),
      };
      const run = runAgent(this.options.subagents ? withSubagents(options, this.options.subagents) : options);
      const generator = this.services.wrapRun ? this.services.wrapRun(run) : run;
      for (;;) {
        const next = await generator.next();
        if (next.done) {
          this.conversation.messages = next.value.messages;
          break;
        }
        this.observe(next.value);
        this.conversation.track(next.value);
        this.todos.track(next.value);
        view.handle(next.value, this.screen.width);
        this.render();
      }
    } catch (error) {
      this.screen.commit([t.red(`✗ Unexpected error: ${(error as Error).message}`)]);
    } finally {
      clearInterval(ticker);
      this.running = undefined;
      this.view = undefined;
      this.screen.commit(['']);
    }
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
        setMessages: (messages) => this.conversation.replaceMessages(messages),
        startOver: (messages) => this.conversation.clear(messages),
        exit: () => this.exit(),
        signal: controller.signal,
      });
    } finally {
      this.running = undefined;
    }
    if (!this.exiting) this.screen.commit(['']);
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
    rows.push(renderStatusLine({ ...this.conversation.status(this.options.maxTurns, state), ...(background ? { background } : {}) }, width, t));
    this.screen.render(rows, cursor);
  }
}
