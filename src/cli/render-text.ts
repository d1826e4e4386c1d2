import type { AgentEvent } from '../contracts/events.js';
import { createStyle, type Style } from './display/style.js';
import { oneLine, summarizeArguments } from './display/summarize.js';
import { visibleText } from './display/visible-text.js';

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
}

const STOP_MESSAGES: Record<string, string> = {
  turn_limit: 'Stopped: the turn limit was reached before an answer.',
  repeated_call: 'Stopped: the model kept repeating the same call.',
  aborted: 'Stopped: aborted.',
  provider_error: 'Stopped: the provider failed.',
  cost_limit: 'Stopped: the cost limit was reached.',
};

/** Plain-text rendering of the event stream for one-shot runs. */
export function createTextRenderer(options: TextRendererOptions): (event: AgentEvent) => void {
  const style: Style = createStyle(options.color);
  let answerOpen = false;
  const outIsTerminal = (options.out as { isTTY?: boolean }).isTTY === true;
  let thinking = false;
  let held = '';
  const endLine = () => {
    if (answerOpen) options.out.write('\n');
    answerOpen = false;
    if (thinking) options.info.write('\n');
    thinking = false;
  };

  return (event) => {
    switch (event.type) {
      case 'reasoning_delta':
        thinking = true;
        options.info.write(style.dim(visibleText(event.text.replaceAll('\r', ''))));
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
        // On a terminal an escape sequence in the reply is shown, not obeyed; piped, the bytes are kept.
        options.out.write(outIsTerminal ? visibleText(event.text.replaceAll('\r', '')) : event.text);
        break;
      case 'assistant_message':
        if (!held) break;
        if (event.message.toolCalls.length) {
          options.info.write(`${held}\n`);
        } else {
          options.out.write(held);
          answerOpen = true;
        }
        held = '';
        break;
      case 'tool_call_start':
        endLine();
        options.info.write(`${style.cyan('→')} ${style.bold(event.call.name)} ${style.dim(summarizeArguments(event.call.arguments))}\n`);
        break;
      case 'tool_call_end': {
        const mark = event.status === 'ok' ? style.green('✓') : event.status === 'denied' ? style.yellow('⊘') : style.red('✗');
        options.info.write(`  ${mark} ${style.dim(`${oneLine(visibleText(event.output.replaceAll('\r\n', '\n')), 120)} (${event.durationMs} ms)`)}\n`);
        break;
      }
      case 'retry': {
        const partial = answerOpen;
        endLine();
        held = '';
        const note = partial ? ' (the partial reply above is discarded)' : '';
        options.info.write(style.yellow(`↻ retry ${event.attempt} in ${(event.delayMs / 1000).toFixed(1)} s: ${oneLine(event.error, 120)}${note}\n`));
        break;
      }
      case 'assistant_message':
        if (!options.holdUntilWhole || !held) break;
        if (event.message.toolCalls.length) options.info.write(`${held}\n`);
        else {
          options.out.write(held);
          answerOpen = true;
        }
        held = '';
        break;
      case 'history_repaired':
        endLine();
        options.info.write(style.yellow(`⚕ history repaired before the request: ${event.repairs.join('; ')}\n`));
        break;
      case 'protocol_error':
        endLine();
        options.info.write(style.yellow(`✗ reply not readable (${event.reason}): ${oneLine(event.error, 120)}\n`));
        break;
      case 'compaction':
        endLine();
        options.info.write(
          style.dim(`⇣ context compacted: ${event.tokensBefore} → ${event.tokensAfter} tokens, ${event.dropped} messages ${event.fallback ? `dropped (${event.fallback})` : 'summarised'}\n`),
        );
        break;
      case 'context_warning':
        endLine();
        options.info.write(style.yellow(`⚠ ${event.message}\n`));
        break;
      case 'handoff':
        endLine();
        options.info.write(`${style.yellow('Turn limit reached. Hand-off from the model:')}\n`);
        options.out.write(`${outIsTerminal ? visibleText(event.text.replaceAll('\r', '')) : event.text}\n`);
        break;
      case 'stop':
        // Text of a reply that never completed (an abort mid-stream) is not an answer.
        if (held) options.info.write(`${held}\n`);
        held = '';
        endLine();
        if (event.reason !== 'answered') {
          const detail = event.error ? ` ${visibleText(event.error)}` : '';
          options.info.write(style.red(`${STOP_MESSAGES[event.reason] ?? event.reason}${detail}\n`));
        }
        break;
      default:
        break;
    }
  };
}
