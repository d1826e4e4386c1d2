import type { Message, ToolMessage } from '../../contracts/messages.js';
import type { ToolCallStatus } from '../../contracts/tool.js';
import type { Theme } from '../display/theme.js';
import { visibleText } from '../display/visible-text.js';
import { MarkdownStream } from './markdown-stream.js';
import { toolLines } from './tool-line.js';

/** A prompt longer than this many lines is folded in the redraw, as the scrollback would not hold it usefully. */
const PROMPT_LINES = 6;
const PROMPT = '› ';

/**
 * The earlier turns of a resumed conversation, drawn as the session drew them: each prompt, the
 * answers in Markdown, each tool call as its line with the result folded to a few lines (✓ / ✗ / ⊘
 * from how it ended). The system prompt is not shown; a compacted history shows its summary as the
 * message it is.
 */
export function earlierTurnLines(messages: readonly Message[], t: Theme, width: number): string[] {
  const lines: string[] = [];
  const results = new Map<string, ToolMessage>();
  for (const message of messages) if (message.role === 'tool') results.set(message.toolCallId, message);
  for (const message of messages) {
    if (message.role === 'user') {
      const rows = visibleText(message.content.replaceAll('\r', '')).split('\n');
      const shownRows = rows.slice(0, PROMPT_LINES);
      lines.push('', ...shownRows.map((line, i) => `${t.cyan(i === 0 ? PROMPT : '  ')}${t.bold(line)}`));
      if (rows.length > shownRows.length) lines.push(`  ${t.dim(`… ${rows.length - shownRows.length} more lines`)}`);
      lines.push('');
    } else if (message.role === 'assistant') {
      if (message.content.trim()) {
        const markdown = new MarkdownStream(t, () => width);
        lines.push(...markdown.push(`${visibleText(message.content.replaceAll('\r', ''))}\n`), ...markdown.end());
      }
      for (const call of message.toolCalls) {
        const result = results.get(call.id);
        const status: ToolCallStatus = !result ? 'error' : result.content.startsWith('Denied:') ? 'denied' : result.isError ? 'error' : 'ok';
        lines.push(...toolLines({ call, startedAt: 0, end: { status, output: result?.content ?? '(no result recorded)', durationMs: 0 } }, 0, t, width).map(withoutDuration));
      }
    }
  }
  return lines;
}

/** A redrawn call has no duration to show (the session file keeps none per call). */
function withoutDuration(line: string): string {
  return line.replace(/ (?:\x1b\[[0-9;]*m)?\(0 ms\)(?:\x1b\[[0-9;]*m)?$/, '');
}
