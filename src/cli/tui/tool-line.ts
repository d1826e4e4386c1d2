import type { ToolCall } from '../../contracts/messages.js';
import type { ToolCallStatus } from '../../contracts/tool.js';
import { oneLine, summarizeArguments } from '../display/summarize.js';
import type { Theme } from '../display/theme.js';
import { visibleText } from '../display/visible-text.js';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/** Result lines shown under a finished call; the rest is folded into "… N more lines". */
export const RESULT_LINES = 4;

export interface ToolCallView {
  call: ToolCall;
  startedAt: number;
  end?: { status: ToolCallStatus; output: string; durationMs: number };
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} m ${Math.round((ms % 60_000) / 1000)} s`;
}

/** The header line of a call: a spinner and elapsed time while it runs, then ✓ / ✗ / ⊘ and its duration. */
export function toolHeader(view: ToolCallView, now: number, t: Theme, width = 100): string {
  const args = summarizeArguments(view.call.arguments, Math.max(10, width - view.call.name.length - 16));
  if (!view.end) {
    const elapsed = now - view.startedAt;
    const frame = SPINNER[Math.floor(elapsed / 80) % SPINNER.length]!;
    return `${t.cyan(frame)} ${t.bold(view.call.name)} ${t.dim(args)} ${t.dim(formatDuration(elapsed))}`;
  }
  const mark = view.end.status === 'ok' ? t.green('✓') : view.end.status === 'denied' ? t.yellow('⊘') : t.red('✗');
  return `${mark} ${t.bold(view.call.name)} ${t.dim(args)} ${t.dim(`(${formatDuration(view.end.durationMs)})`)}`;
}

/** The finished call: its header and its result folded to a few lines; diffs are coloured. */
export function toolLines(view: ToolCallView, now: number, t: Theme, width = 100): string[] {
  const lines = [toolHeader(view, now, t, width)];
  if (!view.end) return lines;
  // A file or command output can hold escape sequences (an OSC 52 clipboard write, a cursor move): shown, never obeyed.
  const output = visibleText(view.end.output.replaceAll('\r\n', '\n')).replace(/\s+$/, '');
  if (!output) return lines;
  const body = output.split('\n');
  const diff = looksLikeDiff(body);
  const shown = diff ? body.slice(0, RESULT_LINES * 3) : body.slice(0, RESULT_LINES);
  const colour = view.end.status === 'ok' ? (text: string) => t.dim(text) : view.end.status === 'denied' ? t.yellow : t.red;
  for (const line of shown) lines.push(`  ${t.dim('│')} ${diff ? colourDiffLine(line, t) : colour(oneLine(line, Math.max(10, width - 4)))}`);
  if (body.length > shown.length) lines.push(`  ${t.dim(`… ${body.length - shown.length} more lines`)}`);
  return lines;
}

export function looksLikeDiff(lines: string[]): boolean {
  return lines.some((line) => line.startsWith('@@ ')) && lines.some((line) => /^[+-](?![+-]{2} )/.test(line));
}

export function colourDiffLine(line: string, t: Theme): string {
  if (line.startsWith('+++') || line.startsWith('---')) return t.bold(line);
  if (line.startsWith('@@')) return t.cyan(line);
  if (line.startsWith('+')) return t.green(line);
  if (line.startsWith('-')) return t.red(line);
  return t.dim(line);
}
