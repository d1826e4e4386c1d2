import type { OutputStore } from '../../tools/output-store.js';
import { sanitizeInput } from '../display/sanitize.js';
import { attachLongPrompt, PASTE_ATTACH_CHARS, textSize, type AttachedPrompt } from '../../mentions/long-prompt.js';

export { attachLongPrompt, PASTE_ATTACH_CHARS, textSize };

/** A paste of more lines than this shows as a chip in the interactive prompt rather than line by line. */
export const PASTE_CHIP_LINES = 40;

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
