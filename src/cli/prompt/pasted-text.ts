import { capText, format } from '../../tools/cap-output.js';
import type { OutputStore } from '../../tools/output-store.js';
import { sanitizeInput } from '../display/sanitize.js';

/** A prompt longer than this goes as an attachment: its head and tail in the message, the whole kept for read_output. */
export const PASTE_ATTACH_CHARS = 30_000;
/** How much of such a prompt the message carries (head and tail). */
export const PASTE_SHOWN_CHARS = 8_000;
/** A paste of more lines than this shows as a chip in the interactive prompt rather than line by line. */
export const PASTE_CHIP_LINES = 40;

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

/**
 * The interactive prompt's long pastes: a paste of many lines (or past PASTE_ATTACH_CHARS) becomes a
 * chip (`[pasted text #1: 2,701 lines, 1.5 MB]`), so neither the prompt nor the scrollback fills with
 * it; `expand` puts the text back where its chip still is when the prompt is sent (a chip the user
 * deleted sends nothing).
 */
export class PastedTexts {
  private readonly byChip = new Map<string, string>();

  paste(pasted: string): string | undefined {
    // Terminals paste line ends as carriage returns; escape sequences are dropped as the editor drops them.
    const text = sanitizeInput(pasted.replace(/\r\n?/g, '\n'));
    if (text.length <= PASTE_ATTACH_CHARS && text.split('\n').length <= PASTE_CHIP_LINES) return undefined;
    const chip = `[pasted text #${this.byChip.size + 1}: ${textSize(text)}]`;
    this.byChip.set(chip, text);
    return chip;
  }

  /** The prompt as sent: chips expanded, then attached when it is long (attachLongPrompt). */
  prepare(prompt: string, outputs: OutputStore): Promise<AttachedPrompt> {
    return attachLongPrompt(this.expand(prompt), outputs);
  }

  expand(prompt: string): string {
    let expanded = prompt;
    for (const [chip, text] of this.byChip) expanded = expanded.split(chip).join(text);
    return expanded;
  }
}
