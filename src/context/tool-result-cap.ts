import type { ToolMessage } from '../contracts/messages.js';
import { outputIdFor } from './output-store.js';

/**
 * Caps one tool result: head and tail stay, the middle is replaced by a note naming the output
 * id under which the full text is stored. A pure function of the message and the budget.
 */
export interface CappedResult {
  message: ToolMessage;
  /** The full output to store, when the message was cut. */
  stored?: { id: string; text: string };
}

const CAP_NOTE = /\n\[… [\d,]+ chars \([\d,]+ lines?\) omitted of ([\d,]+); full output saved as output id (out_[0-9a-f]{12}); call read_output to see more\]\n/;

export function capToolResult(message: ToolMessage, maxChars: number): CappedResult {
  const text = message.content;
  if (text.length <= maxChars || capNoteOf(text)) return { message };
  const id = outputIdFor(text);
  const headLength = Math.floor(maxChars * 0.6);
  const tailLength = maxChars - headLength;
  const omitted = text.slice(headLength, text.length - tailLength);
  const lines = lineCount(omitted);
  const note = `\n[… ${format(omitted.length)} chars (${format(lines)} line${lines === 1 ? '' : 's'}) omitted of ${format(text.length)}; full output saved as output id ${id}; call read_output to see more]\n`;
  return { message: { ...message, content: text.slice(0, headLength) + note + text.slice(text.length - tailLength) }, stored: { id, text } };
}

/** The id and full length recorded in a capped result's note, if it has one. */
export function capNoteOf(text: string): { id: string; chars: number } | undefined {
  const match = CAP_NOTE.exec(text);
  return match ? { id: match[2]!, chars: Number(match[1]!.replaceAll(',', '')) } : undefined;
}

export function format(n: number): string {
  return n.toLocaleString('en-US');
}

function lineCount(text: string): number {
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}
