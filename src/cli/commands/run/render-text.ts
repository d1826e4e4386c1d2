import type { AgentEvent } from '../../../contracts/events.js';
import { describeEvent, paintLine } from '../../display/describe-event.js';
import { createTheme } from '../../display/theme.js';
import { sanitizeText } from '../../display/safe-output.js';
import { visibleText } from '../../display/visible-text.js';
import { formatSources } from '../../display/format-sources.js';
import type { MarkdownStream } from '../../tui/markdown-stream.js';

export interface TextRendererOptions {
  /** Where the answer goes. */
  out: { write(text: string): unknown };
  /** Where the process goes (tool calls, retries, thinking): stderr when stdout is piped. */
  info: { write(text: string): unknown };
  color: boolean;
  /**
   * Hold each reply's text until the reply is whole (stdout is a file or a pipe): only the answer
   * goes to `out`, the text of tool turns to `info`, and a reply cut off and retried is dropped.
   */
  holdUntilWhole?: boolean;
  /**
   * Render the answer as Markdown (stdout is a terminal): whole lines are written as they
   * complete, tables drawn once whole; the partial line is the caller's to preview.
   */
  markdown?: MarkdownStream;
}

/** Plain-text rendering of the event stream for one-shot runs. */
export function createTextRenderer(options: TextRendererOptions): (event: AgentEvent) => void {
  const theme = createTheme(options.color);
  let answerOpen = false;
  const outIsTerminal = (options.out as { isTTY?: boolean }).isTTY === true;
  // On a terminal an escape sequence in the reply is shown, not obeyed; piped, the bytes are kept.
  const answerText = (text: string) => (outIsTerminal ? visibleText(text.replaceAll('\r', '')) : text);
  let thinking = false;
  let held = '';
  const markdown = options.markdown;
  const writeAnswer = (text: string) => {
    if (!markdown) return options.out.write(answerText(text));
    for (const line of markdown.push(answerText(text))) options.out.write(`${line}\n`);
  };
  /** Ends the answer's open line: a Markdown renderer's held lines are written out whole. */
  const closeAnswer = () => {
    if (markdown) for (const line of markdown.end()) options.out.write(`${line}\n`);
    else if (answerOpen) options.out.write('\n');
    answerOpen = false;
  };
  const endLine = () => {
    closeAnswer();
    if (thinking) options.info.write('\n');
    thinking = false;
  };
  const infoLine = (event: AgentEvent, partialReplyShown = false) => {
    const line = describeEvent(event, { partialReplyShown });
    if (!line) return;
    // A result sits indented under its call; every other line starts on a line of its own.
    if (event.type === 'tool_call_end') options.info.write(`  ${paintLine(line, theme)}\n`);
    else {
      endLine();
      options.info.write(`${paintLine(line, theme)}\n`);
    }
  };

  return (event) => {
    // A subagent shows as its calls and its end, folded under its name; its text is its parent's to report.
    if (event.agent !== undefined) return infoLine(event);
    switch (event.type) {
      case 'reasoning_delta':
        thinking = true;
        options.info.write(theme.dim(visibleText(event.text.replaceAll('\r', ''))));
        break;
      case 'text_delta':
        if (thinking) {
          options.info.write('\n');
          thinking = false;
        }
        if (options.holdUntilWhole) {
          held += event.text;
          break;
        }
        answerOpen = true;
        writeAnswer(event.text);
        break;
      case 'assistant_message': {
        const sources = formatSources(event.message.citations);
        if (held && event.message.toolCalls.length) {
          // The model's own colours are dropped too: its text must not hide or restyle the process lines.
          options.info.write(`${sanitizeText(held, false)}\n`);
        } else if (held) {
          options.out.write(held);
          answerOpen = true;
        }
        held = '';
        if (sources) {
          // The answer's sources follow it on its own output; a tool turn's go with the process lines.
          const target = event.message.toolCalls.length ? options.info : options.out;
          closeAnswer();
          target.write(`\n${visibleText(sources)}`);
        }
        break;
      }
      // The call's line follows as soon as its arguments are whole; output that is only appended has no line to update.
      case 'tool_call_delta':
        break;
      case 'retry': {
        const partial = answerOpen;
        held = '';
        infoLine(event, partial);
        break;
      }
      case 'handoff':
        infoLine(event);
        writeAnswer(`${event.text}\n`);
        closeAnswer();
        break;
      case 'stop':
        // Text of a reply that never completed (an abort mid-stream) is not an answer.
        if (held) options.info.write(`${sanitizeText(held, false)}\n`);
        held = '';
        endLine();
        infoLine(event);
        break;
      default:
        infoLine(event);
        break;
    }
  };
}
