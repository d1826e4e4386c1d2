import type { ToolCall } from '../../contracts/messages.js';
import type { ToolCallStatus } from '../../contracts/tool.js';
import { parseCommandResult, isCommandTool } from '../display/command-result.js';
import { failureLine } from '../display/failure-line.js';
import { STATUS_MARKS, paintLine, shown } from '../display/describe-event.js';
import { colourDiffLine, looksLikeDiff } from '../display/diff-colour.js';
import { formatDuration } from '../display/format-duration.js';
import { previewLine } from '../display/preview-line.js';
import { summarizeArguments } from '../display/summarize.js';
import type { Theme } from '../display/theme.js';

import { spinnerFrame } from '../display/spinner.js';

export { spinnerFrame };
/** Result lines shown under a finished call; the rest is folded into "… N more lines". */
export const RESULT_LINES = 4;

export interface ToolCallView {
  call: ToolCall;
  startedAt: number;
  end?: { status: ToolCallStatus; output: string; durationMs: number };
}

/** The header line of a call: a spinner and elapsed time while it runs, then ✓ / ✗ / ⊘ and its duration. */
export function toolHeader(view: ToolCallView, now: number, t: Theme, width = 100): string {
  const name = shown(view.call.name);
  const args = shown(summarizeArguments(view.call.arguments, Math.max(10, width - name.length - 16)));
  if (!view.end) {
    const elapsed = now - view.startedAt;
    return `${t.cyan(spinnerFrame(elapsed))} ${t.bold(name)} ${t.dim(args)} ${t.dim(formatDuration(elapsed))}`;
  }
  return `${paintLine([STATUS_MARKS[view.end.status]], t)} ${t.bold(name)} ${t.dim(args)} ${t.dim(`(${formatDuration(view.end.durationMs)})`)}`;
}

/**
 * The finished call: its header and its result folded to a few lines, indentation kept; diffs
 * are coloured. A command shows the tail of its output and how it ended (the exit code).
 */
export function toolLines(view: ToolCallView, now: number, t: Theme, width = 100): string[] {
  const lines = [toolHeader(view, now, t, width)];
  if (!view.end) return lines;
  // A file or command output can hold escape sequences (an OSC 52 clipboard write, a cursor move): shown, never obeyed.
  const output = shown(view.end.output).replace(/\s+$/, '');
  if (!output) return lines;
  const status = view.end.status;
  const colour = status === 'ok' ? t.dim : status === 'denied' ? t.yellow : t.red;
  const row = (line: string) => `  ${t.dim('│')} ${line}`;
  const preview = (line: string) => row(colour(previewLine(line, Math.max(10, width - 4))));

  const command = isCommandTool(view.call.name) ? parseCommandResult(output, status !== 'ok') : undefined;
  if (command) {
    const tail = command.output.slice(-RESULT_LINES);
    const folded = command.output.length - tail.length;
    if (folded > 0) lines.push(`  ${t.dim(`… ${folded} earlier lines`)}`);
    // A runner's summary fills the tail; the line naming the failure is kept above it.
    const failure = command.succeeded ? undefined : failureLine(command.output);
    if (failure !== undefined && !tail.includes(failure)) lines.push(preview(failure));
    lines.push(...tail.map(preview), row((command.succeeded ? t.dim : t.red)(command.ending)));
    return lines;
  }
  const body = output.split('\n');
  const diff = looksLikeDiff(body);
  const shownLines = diff ? body.slice(0, RESULT_LINES * 3) : body.slice(0, RESULT_LINES);
  lines.push(...shownLines.map((line) => (diff ? row(colourDiffLine(line, t)) : preview(line))));
  if (body.length > shownLines.length) lines.push(`  ${t.dim(`… ${body.length - shownLines.length} more lines`)}`);
  return lines;
}
