import { formatSources } from '../display/format-sources.js';
import type { AgentEvent } from '../../contracts/events.js';
import { describeEvent, paintLine } from '../display/describe-event.js';
import { formatDuration } from '../display/format-duration.js';
import type { Theme } from '../display/theme.js';
import { visibleText } from '../display/visible-text.js';
import { MarkdownStream } from './markdown-stream.js';
import { spinnerFrame, toolLines, toolHeader, type ToolCallView } from './tool-line.js';
import { ChildBlocks, childBlockLines, type ChildBlock } from './child-blocks.js';

/** The tool that starts a subagent (src/agents/task-tool.ts). */
const TASK_TOOL = 'task';

/** A call whose arguments are still streaming: shown before it runs, so a long write is visible. */
interface PendingCall {
  event: Extract<AgentEvent, { type: 'tool_call_delta' }>;
  since: number;
}

/**
 * Renders one run from its events: finished lines go to `commit` (the scrollback), and `live()`
 * gives what is still changing: the partial Markdown line, calls being written and running, a spinner.
 */
export class TurnView {
  private readonly markdown: MarkdownStream;
  private reasoning = '';
  /** Text of the current reply has been shown (a retry then discards it). */
  private streamedText = false;
  private readonly pending = new Map<string, PendingCall>();
  private readonly running = new Map<string, ToolCallView>();
  private waitingSince: number | undefined;
  private cancelling = false;
  private readonly children: ChildBlocks;
  /** Subagent blocks show their tool lines (Ctrl-O). */
  private expanded = false;
  /** The screen's width as last given: a table is drawn to it. */
  private width = 100;
  done = false;

  constructor(
    private readonly commit: (lines: string[]) => void,
    private readonly theme: Theme,
    private readonly now: () => number = Date.now,
  ) {
    this.markdown = new MarkdownStream(theme, () => this.width);
    this.waitingSince = now();
    this.children = new ChildBlocks(theme, now);
  }

  /** Running blocks redraw at once; finished ones are committed as they are when their call ends. */
  setExpanded(expanded: boolean): void {
    this.expanded = expanded;
  }

  /** The subagents this run started, for Ctrl-O after the turn. */
  subagents(): ChildBlock[] {
    return this.children.all();
  }

  /** Shown on the spinner line after the first Ctrl-C. */
  markCancelling(): void {
    this.cancelling = true;
  }

  handle(event: AgentEvent, width = 100): void {
    const t = this.theme;
    this.width = width;
    // A subagent is a folded block under its task call: its calls and end, never its streamed text.
    if (event.agent !== undefined) return this.children.handle({ ...event, agent: event.agent }, width);
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
      case 'tool_call_delta':
        this.flushText();
        if (!this.pending.has(event.id)) this.pending.set(event.id, { event, since: this.now() });
        else this.pending.get(event.id)!.event = event;
        break;
      case 'assistant_message': {
        this.streamedText = false;
        this.pending.clear();
        this.flushText();
        this.waitingSince = undefined;
        const sources = formatSources(event.message.citations);
        if (sources) this.commit(['', ...shownText(sources).trimEnd().split('\n').map((line) => t.dim(line))]);
        break;
      }
      case 'tool_call_start':
        this.pending.delete(event.call.id);
        this.flushText();
        this.running.set(event.call.id, { call: event.call, startedAt: this.now() });
        if (event.call.name === TASK_TOOL) this.children.noteTaskCall(event.call);
        break;
      case 'tool_call_end': {
        const view = this.running.get(event.id);
        if (!view) break;
        this.running.delete(event.id);
        view.end = { status: event.status, output: event.output, durationMs: event.durationMs };
        this.commit(toolLines(view, this.now(), t, width));
        const block = view.call.name === TASK_TOOL ? this.children.callEnded(event.id, event.status !== 'ok') : undefined;
        if (block) this.commit(childBlockLines(block, this.expanded, t, this.now(), width));
        if (this.running.size === 0) this.waitingSince = this.now();
        break;
      }
      case 'retry': {
        // Text already shown belongs to the reply that broke off: end it, so the retried reply starts afresh.
        const partialReplyShown = this.streamedText;
        this.streamedText = false;
        this.pending.clear();
        this.flushText();
        this.commitEvent(event, width, partialReplyShown);
        this.waitingSince = this.now();
        break;
      }
      case 'handoff':
        this.flushText();
        this.commitEvent(event, width);
        this.commit([...this.markdown.push(`${shownText(event.text)}\n`), ...this.markdown.end()]);
        break;
      case 'stop':
        this.flushText();
        this.pending.clear();
        this.done = true;
        this.waitingSince = undefined;
        for (const block of this.children.unclaimed()) this.commit(childBlockLines(block, this.expanded, t, this.now(), width));
        this.commitEvent(event, width);
        break;
      default:
        this.commitEvent(event, width);
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
    for (const { event, since } of this.pending.values()) lines.push(`${paintLine(describeEvent(event)!, t)} ${t.dim(formatDuration(now - since))}`);
    for (const view of this.running.values()) {
      lines.push(toolHeader(view, now, t, width));
      const block = view.call.name === TASK_TOOL ? this.children.forCall(view.call.id) : undefined;
      if (block) lines.push(...childBlockLines(block, this.expanded, t, now, width));
    }
    const busy = partial !== undefined || this.pending.size > 0 || this.running.size > 0;
    if (this.waitingSince !== undefined && !this.done && !busy) {
      const what = this.cancelling ? 'Cancelling…' : 'Working…';
      lines.push(`${t.cyan(spinnerFrame(now))} ${what} ${t.dim(`${formatDuration(now - this.waitingSince)} · Ctrl-C to cancel`)}`);
    } else if (this.cancelling && !this.done) {
      lines.push(t.yellow('Cancelling…'));
    }
    return lines;
  }

  /** The event's line as every renderer shows it, with room for the screen's width. */
  private commitEvent(event: AgentEvent, width: number, partialReplyShown = false): void {
    const line = describeEvent(event, { width: Math.max(20, width - 20), partialReplyShown });
    if (line) this.commit([paintLine(line, this.theme)]);
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
