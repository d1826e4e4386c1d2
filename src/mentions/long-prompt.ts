import { capText, format } from '../tools/cap-output.js';
import type { OutputStore } from '../tools/output-store.js';

/** A prompt longer than this goes as an attachment: its head and tail in the message, the whole kept for read_output. */
export const PASTE_ATTACH_CHARS = 30_000;
/** How much of such a prompt the message carries (head and tail). */
export const PASTE_SHOWN_CHARS = 8_000;

/** The size of a text as the user is shown it: `2,701 lines, 1.5 MB`. */
export function textSize(text: string): string {
  const lines = text.split('\n').length;
  const bytes = Buffer.byteLength(text);
  const size = bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : bytes >= 1_000 ? `${(bytes / 1_000).toFixed(1)} kB` : `${bytes} bytes`;
  return `${format(lines)} line${lines === 1 ? '' : 's'}, ${size}`;
}

export interface AttachedPrompt {
  /** What goes in the user message. */
  text: string;
  /** Set when the prompt was attached rather than sent whole: what the user is told. */
  note?: string;
}

/**
 * A prompt past PASTE_ATTACH_CHARS is not sent whole (and resent with every later request): the
 * message holds a `<pasted-text>` element with its head and tail and the capped-output note naming
 * the output id, and the whole text is stored for read_output. A shorter prompt is returned as it is.
 */
export async function attachLongPrompt(prompt: string, outputs: OutputStore): Promise<AttachedPrompt> {
  if (prompt.length <= PASTE_ATTACH_CHARS) return { text: prompt };
  const { text, stored } = capText(prompt, PASTE_SHOWN_CHARS, { fresh: true });
  if (!stored) return { text: prompt };
  await outputs.put(stored.id, stored.text);
  const size = textSize(prompt);
  return {
    text: `<pasted-text size="${size}" id="${stored.id}">\n${text}\n</pasted-text>`,
    note: `the prompt (${size}) went as an attachment: its first and last characters in the message, the whole for read_output (id ${stored.id})`,
  };
}
