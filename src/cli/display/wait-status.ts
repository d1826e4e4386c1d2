import type { AgentEvent } from '../../contracts/events.js';
import { formatDuration } from './format-duration.js';
import { spinnerFrame } from './spinner.js';
import { shown } from './describe-event.js';
import { summarizeArguments } from './summarize.js';
import { truncateLine } from './text-width.js';
import type { Theme } from './theme.js';

/** A running call as the line names it: the tool and a summary of its arguments. */
interface RunningCall {
  name: string;
  args: string;
}

/** What a one-shot run is waiting on, if anything: the model's first byte, or tools still running. */
type Waiting = { what: 'model'; since: number } | { what: 'tools'; since: number; calls: Map<string, RunningCall> } | undefined;

export interface WaitStatusOptions {
  /** A terminal (stderr in a one-shot run): the line is redrawn in place and erased. */
  out: { write(text: string): unknown };
  theme: Theme;
  now?: () => number;
  /** How often the line is redrawn. */
  intervalMs?: number;
  /** The terminal's width: the line is cut to it, so erasing it never leaves a wrapped row behind. */
  columns?: () => number;
  /**
   * While the reply streams: the line of it being written, not yet on screen (a Markdown renderer
   * draws whole lines only); shown in place of the wait line so the reply is seen as it comes.
   */
  preview?: () => string | undefined;
}

/** The wait line on screen, to erase before a question is asked on the same terminal (see holdWaitStatus). */
let current: WaitStatus | undefined;

/**
 * Never a silent wait in a one-shot run: while the request waits for the model's first byte, or a
 * tool runs, one line on the terminal shows a spinner and the time waited
 * (`⠋ Waiting for the model… 12.0 s · Ctrl-C stops`, `⠋ Running bash command="npm test"… 3.1 s ·
 * Ctrl-C stops`). It is erased before any other output, so it never lands in the scrollback; once
 * the reply streams, only the line being written is previewed there.
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
        const calls = this.waiting?.what === 'tools' ? this.waiting.calls : new Map<string, RunningCall>();
        calls.set(event.call.id, { name: shown(event.call.name), args: shown(summarizeArguments(event.call.arguments, 60)) });
        this.waiting = { what: 'tools', since: this.waiting?.what === 'tools' ? this.waiting.since : this.now(), calls };
        break;
      }
      case 'tool_call_end':
        if (this.waiting?.what === 'tools') {
          this.waiting.calls.delete(event.id);
          if (this.waiting.calls.size === 0) this.waiting = undefined;
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
    const t = this.options.theme;
    if (!waiting) {
      const preview = this.options.preview?.();
      return preview ? this.fit(preview) : undefined;
    }
    const elapsed = this.now() - waiting.since;
    return this.fit(`${t.cyan(spinnerFrame(elapsed))} ${waiting.what === 'model' ? 'Waiting for the model…' : this.running(waiting.calls)} ${t.dim(`${formatDuration(elapsed)} · Ctrl-C stops`)}`);
  }

  /** `Running bash command="npm test"…`; with calls in parallel, the first and how many more. */
  private running(calls: Map<string, RunningCall>): string {
    const [first, ...rest] = [...calls.values()];
    const what = `${this.options.theme.bold(first!.name)}${first!.args ? ` ${this.options.theme.dim(first!.args)}` : ''}`;
    return `Running ${what}${rest.length ? ` and ${rest.length} more` : ''}…`;
  }

  private fit(line: string): string {
    const columns = this.options.columns?.();
    return columns ? truncateLine(line, columns - 1) : line;
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
