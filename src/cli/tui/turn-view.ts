import type { AgentEvent } from '../../contracts/events.js';
import { oneLine } from '../display/summarize.js';
import { MarkdownStream } from './markdown-stream.js';
import type { Theme } from '../display/theme.js';
import { formatDuration, toolHeader, toolLines, type ToolCallView } from './tool-line.js';
import { visibleText } from '../display/visible-text.js';

const STOP_MESSAGES: Record<string, string> = {
  turn_limit: 'Stopped: the turn limit was reached before an answer.',
  repeated_call: 'Stopped: the model kept repeating the same call.',
  aborted: 'Aborted. The turn was cancelled; the conversation so far is kept.',
  provider_error: 'Stopped: the provider failed.',
  cost_limit: 'Stopped: the cost limit was reached.',
};

/**
 * Renders one run from its events: finished lines go to `commit` (the scrollback), and `live()`
 * gives what is still changing: the partial Markdown line, running tools, a spinner.
 */
export class TurnView {
  private readonly markdown: MarkdownStream;
  private reasoning = '';
  /** Text of the current reply has been shown (a retry then discards it). */
  private streamedText = false;
  private readonly running = new Map<string, ToolCallView>();
  private waitingSince: number | undefined;
  private cancelling = false;
  done = false;

  constructor(
    private readonly commit: (lines: string[]) => void,
    private readonly theme: Theme,
    private readonly now: () => number = Date.now,
  ) {
    this.markdown = new MarkdownStream(theme);
    this.waitingSince = now();
  }

  /** Shown on the spinner line after the first Ctrl-C. */
  markCancelling(): void {
    this.cancelling = true;
  }

  handle(event: AgentEvent, width = 100): void {
    const t = this.theme;
    switch (event.type) {
      case 'turn_start':
        this.waitingSince = this.now();
        break;
      case 'reasoning_delta': {
        this.waitingSince = undefined;
        this.reasoning += shownText(event.text);
        const lines = this.reasoning.split('\n');
        this.reasoning = lines.pop() ?? '';
        this.commit(lines.map((line) => t.dim(t.italic(line))));
        break;
      }
      case 'text_delta':
        this.waitingSince = undefined;
        this.streamedText = true;
        this.flushReasoning();
        this.commit(this.markdown.push(shownText(event.text)));
        break;
      case 'assistant_message':
        this.streamedText = false;
        this.flushText();
        this.waitingSince = undefined;
        break;
      case 'tool_call_start':
        this.flushText();
        this.running.set(event.call.id, { call: event.call, startedAt: this.now() });
        break;
      case 'tool_call_end': {
        const view = this.running.get(event.id);
        if (!view) break;
        this.running.delete(event.id);
        view.end = { status: event.status, output: event.output, durationMs: event.durationMs };
        this.commit(toolLines(view, this.now(), t, width));
        if (this.running.size === 0) this.waitingSince = this.now();
        break;
      }
      case 'retry': {
        // Text already shown belongs to the reply that broke off: end it, so the retried reply starts afresh.
        const partial = this.streamedText;
        this.streamedText = false;
        this.flushText();
        const note = partial ? ' (the partial reply above is discarded)' : '';
        this.commit([t.yellow(`↻ retry ${event.attempt} in ${formatDuration(event.delayMs)}: ${oneLine(shownText(event.error), Math.max(20, width - 20))}${note}`)]);
        this.waitingSince = this.now();
        break;
      }
      case 'compaction':
        this.commit([t.dim(`⇣ context compacted: ${event.tokensBefore} → ${event.tokensAfter} tokens, ${event.dropped} messages ${event.fallback ? `dropped (${event.fallback})` : 'summarised'}`)]);
        break;
      case 'context_warning':
        this.commit([t.yellow(`⚠ ${event.message}`)]);
        break;
      case 'history_repaired':
        this.commit([t.yellow(`⚕ history repaired before the request: ${event.repairs.join('; ')}`)]);
        break;
      case 'protocol_error':
        this.commit([t.yellow(`✗ reply not readable (${event.reason}): ${oneLine(shownText(event.error), Math.max(20, width - 30))}`)]);
        break;
      case 'handoff':
        this.flushText();
        this.commit([t.yellow('Turn limit reached. Hand-off from the model:'), ...this.markdown.push(`${shownText(event.text)}\n`), ...this.markdown.end()]);
        break;
      case 'stop':
        this.flushText();
        this.done = true;
        this.waitingSince = undefined;
        if (event.reason !== 'answered') {
          const detail = event.error ? ` ${shownText(event.error)}` : '';
          const text = `${STOP_MESSAGES[event.reason] ?? event.reason}${detail}`;
          this.commit([event.reason === 'aborted' ? t.yellow(`⊘ ${text}`) : t.red(`✗ ${text}`)]);
        }
        break;
      default:
        break;
    }
  }

  /** The rows that still change; `maxRows` is the most the screen shows of the partial line. */
  live(width: number, maxRows = 200): string[] {
    const t = this.theme;
    const lines: string[] = [];
    const tailChars = width * maxRows;
    if (this.reasoning) lines.push(t.dim(t.italic(this.reasoning.length > tailChars ? this.reasoning.slice(-tailChars) : this.reasoning)));
    const partial = this.markdown.partial(tailChars);
    if (partial !== undefined) lines.push(partial);
    const now = this.now();
    for (const view of this.running.values()) lines.push(toolHeader(view, now, t, width));
    if (this.waitingSince !== undefined && !this.done && partial === undefined && this.running.size === 0) {
      const frame = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'][Math.floor(now / 80) % 10]!;
      const what = this.cancelling ? 'Cancelling…' : 'Working…';
      lines.push(`${t.cyan(frame)} ${what} ${t.dim(`${formatDuration(now - this.waitingSince)} · Ctrl-C to cancel`)}`);
    } else if (this.cancelling && !this.done) {
      lines.push(t.yellow('Cancelling…'));
    }
    return lines;
  }

  private flushReasoning(): void {
    if (this.reasoning) this.commit([this.theme.dim(this.theme.italic(this.reasoning))]);
    this.reasoning = '';
  }

  private flushText(): void {
    this.flushReasoning();
    this.commit(this.markdown.end());
  }
}

/** The model's text as the screen shows it: an escape sequence in a reply is written out, never obeyed. */
function shownText(text: string): string {
  return visibleText(text.replaceAll('\r', ''));
}
