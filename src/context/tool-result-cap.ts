import type { ToolMessage } from '../contracts/messages.js';
import { capNoteOf, capText, format } from '../tools/cap-output.js';

export { capNoteOf, format };

/**
 * Caps one tool result for the context policy, through the one cap (tools/cap-output.ts): head
 * and tail stay, the middle is replaced by a note naming the output id of the whole text.
 * A pure function of the message and the budget.
 */
export interface CappedResult {
  message: ToolMessage;
  /** The full output to store, when this cut was the first. */
  stored?: { id: string; text: string };
  /** The message the model sees carries a cap note: read_output has something to read. */
  shortened: boolean;
}

export function capToolResult(message: ToolMessage, maxChars: number): CappedResult {
  const capped = capText(message.content, maxChars);
  const shortened = capped.stored !== undefined || capNoteOf(capped.text) !== undefined;
  if (capped.text === message.content) return { message, shortened };
  return { message: { ...message, content: capped.text }, ...(capped.stored ? { stored: capped.stored } : {}), shortened };
}
