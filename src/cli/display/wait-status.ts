import type { AgentEvent } from '../../contracts/events.js';
import { formatDuration } from './format-duration.js';
import { spinnerFrame } from './spinner.js';
import { shown } from './describe-event.js';
import type { Theme } from './theme.js';

/** What a one-shot run is waiting on, if anything: the model's first byte, or tools still running. */
type Waiting = { what: 'model'; since: number } | { what: 'tools'; since: number; names: Map<string, string> } | undefined;

export interface WaitStatusOptions {
  /** A terminal (stderr in a one-shot run): the line is redrawn in place and erased. */
  out: { write(text: string): unknown };
  theme: Theme;
  now?: () => number;
  /** How often the line is redrawn. */
  intervalMs?: number;
}

/** The wait line on screen, to erase before a question is asked on the same terminal (see holdWaitStatus). */
let current: WaitStatus | undefined;

/**
 * Never a silent wait in a one-shot run: while the request waits for the model's first byte, or a
 * tool runs, one line on the terminal shows a spinner and the time waited
 * (`⠋ Waiting for the model… 12.0 s · Ctrl-C stops`). It is erased before any other output, so
 * it never lands in the scrollback; nothing is drawn once the reply streams.
 */
export class WaitStatus {
  private waiting: Waiting;
  private drawn = false;
  private held = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly now: () => number;

  constructor(private readonly options: WaitStatusOptions) {
    this.now = options.now ?? Date.now;
    this.timer = setInterval(() => this.draw(), options.intervalMs ?? 100);
    this.timer.unref();
    current = this;
  }

  /** Passes each event through: the line is erased before the renderer writes, then drawn again if still waiting. */
  wrap(render: (event: AgentEvent) => void): (event: AgentEvent) => void {
    return (event) => {
      this.clear();
      render(event);
      this.handle(event);
      this.draw();
    };
  }

  handle(event: AgentEvent): void {
    if (event.agent !== undefined) return;
    switch (event.type) {
      case 'turn_start':
      case 'retry':
        this.waiting = { what: 'model', since: this.now() };
        break;
      case 'text_delta':
      case 'reasoning_delta':
      case 'tool_call_delta':
      case 'assistant_message':
        this.waiting = undefined;
        break;
      case 'tool_call_start': {
        const names = this.waiting?.what === 'tools' ? this.waiting.names : new Map<string, string>();
        names.set(event.call.id, event.call.name);
        this.waiting = { what: 'tools', since: this.waiting?.what === 'tools' ? this.waiting.since : this.now(), names };
        break;
      }
      case 'tool_call_end':
        if (this.waiting?.what === 'tools') {
          this.waiting.names.delete(event.id);
          if (this.waiting.names.size === 0) this.waiting = undefined;
        }
        break;
      case 'stop':
        this.stop();
        break;
    }
  }

  /** The line as drawn now, or undefined when nothing is waited on. */
  line(): string | undefined {
    const waiting = this.waiting;
    if (!waiting) return undefined;
    const t = this.options.theme;
    const elapsed = this.now() - waiting.since;
    const what = waiting.what === 'model' ? 'Waiting for the model…' : `Running ${[...new Set(waiting.names.values())].map(shown).join(', ')}…`;
    return `${t.cyan(spinnerFrame(elapsed))} ${what} ${t.dim(`${formatDuration(elapsed)} · Ctrl-C stops`)}`;
  }

  /** Stops drawing while something else owns the terminal (a question); the returned function gives it back. */
  hold(): () => void {
    this.clear();
    this.held++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.held--;
      this.draw();
    };
  }

  stop(): void {
    this.clear();
    this.waiting = undefined;
    clearInterval(this.timer);
    if (current === this) current = undefined;
  }

  private draw(): void {
    const line = this.held > 0 ? undefined : this.line();
    if (line === undefined) return this.clear();
    this.options.out.write(`\r${line}\x1b[K`);
    this.drawn = true;
  }

  private clear(): void {
    if (!this.drawn) return;
    this.options.out.write('\r\x1b[K');
    this.drawn = false;
  }
}

/** Erases the one-shot run's wait line, if any, while a question is on the terminal; call the result when it is answered. */
export function holdWaitStatus(): () => void {
  return current?.hold() ?? (() => {});
}
