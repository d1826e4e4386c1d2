import { outputIdFor } from './output-store.js';

/** A text as the model may see it, and the whole text to store when it was cut. */
export interface CappedText {
  text: string;
  /** The whole text, under the id its note names; absent when nothing new was cut. */
  stored?: { id: string; text: string };
}

const CAP_NOTE = /\n\[… ([\d,]+) chars \(([\d,]+) lines?\) omitted of ([\d,]+); full output saved as output id (out_[0-9a-f]{12}); call read_output to see more\]\n/;

/**
 * The one cap of tool output (the registry's, then the context policy's): the head (60%) and the
 * tail stay, the middle becomes a note naming the output id under which the whole text is stored,
 * so `read_output` can page back every character. A text that already carries a note is cut
 * further around the same id: the stored text is always the whole one, never an earlier cut.
 * `maxChars` bounds head and tail; the note comes on top. `fresh`: the text comes straight from a
 * tool, so a note in it is the tool's content (a log, another agent's result), never ours.
 */
export function capText(text: string, maxChars: number, options: { fresh?: boolean } = {}): CappedText {
  const note = options.fresh ? undefined : ourNote(text);
  if (note) return { text: recut(text, note, maxChars) };
  if (text.length <= maxChars) return { text };
  const id = outputIdFor(text);
  const headLength = Math.floor(maxChars * 0.6);
  const tailLength = maxChars - headLength;
  const omitted = text.slice(headLength, text.length - tailLength);
  return { text: text.slice(0, headLength) + noteText(omitted.length, newlines(omitted) + 1, text.length, id) + text.slice(text.length - tailLength), stored: { id, text } };
}

/** The id and whole length recorded in a capped text's note, if it has one. */
export function capNoteOf(text: string): { id: string; chars: number } | undefined {
  const match = ourNote(text);
  return match ? { id: match[4]!, chars: number(match[3]!) } : undefined;
}

/** A note this cap wrote: what it says was omitted and what is shown add up to the whole. */
function ourNote(text: string): RegExpExecArray | undefined {
  const note = CAP_NOTE.exec(text);
  if (!note) return undefined;
  return number(note[1]!) + text.length - note[0].length === number(note[3]!) ? note : undefined;
}

export function format(n: number): string {
  return n.toLocaleString('en-US');
}

/** A capped text cut to `maxChars` of head and tail: what it drops joins the omitted middle. */
function recut(text: string, note: RegExpExecArray, maxChars: number): string {
  const head = text.slice(0, note.index);
  const tail = text.slice(note.index + note[0].length);
  if (head.length + tail.length <= maxChars) return text;
  const keepHead = Math.min(head.length, Math.floor(maxChars * 0.6));
  const keepTail = Math.min(tail.length, maxChars - keepHead);
  const droppedHead = head.slice(keepHead);
  const droppedTail = tail.slice(0, tail.length - keepTail);
  const chars = number(note[1]!) + droppedHead.length + droppedTail.length;
  const lines = number(note[2]!) + newlines(droppedHead) + newlines(droppedTail);
  return head.slice(0, keepHead) + noteText(chars, lines, number(note[3]!), note[4]!) + tail.slice(tail.length - keepTail);
}

function noteText(chars: number, lines: number, total: number, id: string): string {
  return `\n[… ${format(chars)} chars (${format(lines)} line${lines === 1 ? '' : 's'}) omitted of ${format(total)}; full output saved as output id ${id}; call read_output to see more]\n`;
}

function number(text: string): number {
  return Number(text.replaceAll(',', ''));
}

function newlines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return count;
}
