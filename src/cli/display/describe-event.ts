import type { AgentEvent, StopReason } from '../../contracts/events.js';
import type { ToolCallStatus } from '../../contracts/tool.js';
import { parseCommandResult, isCommandTool } from './command-result.js';
import { describeChildEvent } from './describe-child-event.js';
import type { DisplayLine, Span } from './display-line.js';
import { formatDuration } from './format-duration.js';
import { imageChip } from '../../images/image-chip.js';
import { oneLine, summarizeArguments } from './summarize.js';
import { failureLine, successLine } from './failure-line.js';
import { toned, type Theme, type Tone } from './theme.js';
import { visibleText } from './visible-text.js';

export type { DisplayLine, Span } from './display-line.js';

export interface DescribeOptions {
  /** Columns a one-line summary (an error, a result, the arguments) may take; default 120. */
  width?: number;
  /** For a retry: text of the reply it cuts off was already shown, so say it is discarded. */
  partialReplyShown?: boolean;
}

const STOP_MESSAGES: Record<Exclude<StopReason, 'answered'>, string> = {
  turn_limit: 'Stopped: the turn limit was reached before an answer.',
  repeated_call: 'Stopped: the model kept repeating the same call.',
  aborted: 'Aborted. The turn was cancelled; what was done so far is kept.',
  provider_error: 'Stopped: the provider failed.',
  cost_limit: 'Stopped: the cost limit was reached.',
  token_limit: 'Stopped: the token budget was spent.',
  plan: 'Plan ready (plan mode: nothing was changed). Run again in another permission mode to carry it out.',
};

export const STATUS_MARKS: Record<ToolCallStatus, Span> = {
  ok: { text: '✓', tone: 'ok' },
  error: { text: '✗', tone: 'error' },
  denied: { text: '⊘', tone: 'warning' },
};

const span = (text: string, tone: Tone = 'plain'): Span => ({ text, tone });

/**
 * The one line an event shows as, the same in the one-shot output, the interactive view and the
 * demo; undefined for events that are not a line of their own (streamed text, usage, turn bounds).
 * Text from outside (errors, names, output) is written out, never obeyed.
 */
export function describeEvent(event: AgentEvent, options: DescribeOptions = {}): DisplayLine | undefined {
  if (event.agent !== undefined) return describeChildEvent({ ...event, agent: event.agent }, (own) => describeEvent(own, options));
  const width = options.width ?? 120;
  switch (event.type) {
    case 'tool_call_delta':
      return [span('→', 'accent'), span(' '), span(shown(event.name), 'bold'), span(' …', 'dim')];
    case 'tool_call_start': {
      const args = shown(summarizeArguments(event.call.arguments, width));
      return [span('→', 'accent'), span(' '), span(shown(event.call.name), 'bold'), ...(args ? [span(' '), span(args, 'dim')] : [])];
    }
    case 'tool_call_end': {
      const chips = event.images?.length ? ` ${shown(event.images.map(imageChip).join(' '))}` : '';
      return [STATUS_MARKS[event.status], span(' '), span(`${summarizeResult(event.name, event.output, event.isError, width)}${chips} (${formatDuration(event.durationMs)})`, 'dim')];
    }
    case 'permission_review': {
      // The fast path is the common case and says nothing new; every refusal and every reviewer verdict is shown.
      if (event.tier === 'fast_path') return undefined;
      const who = event.tier === 'reviewer' && event.reviewer ? `reviewer ${shown(event.reviewer.model)}` : event.tier.replace('_', '-');
      return [span(event.verdict === 'allow' ? '✓' : '⊘', event.verdict === 'allow' ? 'dim' : 'warning'), span(` auto (${who}) ${event.verdict === 'allow' ? 'allowed' : 'refused'}: ${oneLine(shown(event.reason), width)}`, event.verdict === 'allow' ? 'dim' : 'warning')];
    }
    case 'run_start':
      return event.images?.length ? [span(`⧉ attached ${shown(event.images.map(imageChip).join(' '))}`, 'dim')] : undefined;
    case 'retry': {
      const note = options.partialReplyShown ? ' (the partial reply above is discarded)' : '';
      return [span(`↻ retry ${event.attempt} in ${(event.delayMs / 1000).toFixed(1)} s: ${oneLine(shown(event.error), width)}${note}`, 'warning')];
    }
    case 'compaction': {
      const how = event.fallback ? `dropped (${shown(event.fallback)})` : 'summarised';
      return [span(`⇣ context compacted: ${event.tokensBefore} → ${event.tokensAfter} tokens, ${event.dropped} messages ${how}`, 'dim')];
    }
    case 'context_rewrite':
      return [span(`⇣ rewrite point (${event.reason}): ${event.stubbed.length} older outputs stubbed, ${event.savedTokens} tokens out of every later request`, 'dim')];
    case 'context_warning':
      return [span(`⚠ ${shown(event.message)}${event.setting === 'contextWindow' ? ' (--context-window)' : ''}`, 'warning')];
    case 'history_repaired':
      return [span(`⚕ history repaired before the request: ${shown(event.repairs.join('; '))}`, 'warning')];
    case 'protocol_error':
      return [span(`✗ reply not readable (${event.reason}): ${oneLine(shown(event.error), width)}`, 'warning')];
    case 'handoff':
      return [span('Turn limit reached. Hand-off from the model:', 'warning')];
    case 'stop': {
      if (event.reason === 'answered') return undefined;
      const text = `${STOP_MESSAGES[event.reason] ?? event.reason}${event.error ? ` ${shown(event.error)}` : ''}`;
      if (event.reason === 'plan') return [span(`✓ ${text}`, 'ok')];
      return event.reason === 'aborted' ? [span(`⊘ ${text}`, 'warning')] : [span(`✗ ${text}`, 'error')];
    }
    default:
      return undefined;
  }
}

export function paintLine(line: DisplayLine, theme: Theme): string {
  return line.map((part) => toned(theme, part.tone, part.text)).join('');
}

/**
 * A result in one line. A command's ending comes first, then its last line of output, or for a
 * failure the line that says what failed (failure-line.ts): the first lines are a banner.
 */
function summarizeResult(tool: string, output: string, isError: boolean, width: number): string {
  const command = isCommandTool(tool) ? parseCommandResult(output, isError) : undefined;
  if (!command) return oneLine(shown(output), width);
  const last = command.succeeded ? successLine(command.output) : failureLine(command.output);
  return oneLine(shown(last === undefined ? command.ending : `${command.ending} · ${last}`), width);
}

/** Text from outside as the terminal shows it: escape sequences and control characters written out. */
export function shown(text: string): string {
  return visibleText(text.replaceAll('\r\n', '\n'));
}
