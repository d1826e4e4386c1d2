import type { Key } from './key-parser.js';
import type { InputHistory } from './input-history.js';
import { sanitizeInput, TAB } from '../display/sanitize.js';
import { charWidth } from '../display/text-width.js';

export type EditorAction = { type: 'submit'; text: string } | { type: 'complete' } | { type: 'none' };

/**
 * The multi-line prompt. Enter submits; Shift+Enter, Alt+Enter, Ctrl+J or a trailing `\` insert
 * a new line; a bracketed paste is inserted as text (its newlines never submit). Up/Down move
 * between lines, and past the first/last line walk the history.
 */
export class InputEditor {
  text = '';
  /** UTF-16 index into `text`. */
  cursor = 0;
  private historyIndex: number | undefined;
  private draft = '';

  constructor(private readonly history?: InputHistory) {}

  set(text: string): void {
    this.text = text;
    this.cursor = text.length;
  }

  clear(): void {
    this.set('');
    this.historyIndex = undefined;
  }

  handle(key: Key): EditorAction {
    const { name } = key;
    if (name === 'paste') return this.insert(sanitizeInput((key.text ?? '').replace(/\r\n?/g, '\n'))), { type: 'none' };
    if (name === 'char' && !key.ctrl) return this.insert(key.text ?? ''), { type: 'none' };
    if (name === 'return' || name === 'enter') {
      if (key.shift || key.meta || name === 'enter') return this.insert('\n'), { type: 'none' };
      if (this.text[this.cursor - 1] === '\\') {
        this.text = this.text.slice(0, this.cursor - 1) + '\n' + this.text.slice(this.cursor);
        return { type: 'none' };
      }
      const text = this.text.replace(/\s+$/, '');
      if (!text.trim()) return { type: 'none' };
      this.history?.add(text);
      this.clear();
      return { type: 'submit', text };
    }
    if (name === 'tab') return { type: 'complete' };
    if (name === 'backspace') {
      if (key.meta) this.deleteWordBack();
      else if (this.cursor > 0) {
        const start = this.prevIndex(this.cursor);
        this.text = this.text.slice(0, start) + this.text.slice(this.cursor);
        this.cursor = start;
      }
    } else if (name === 'delete' || (key.ctrl && name === 'd')) {
      this.text = this.text.slice(0, this.cursor) + this.text.slice(this.nextIndex(this.cursor));
    } else if (name === 'left' || (key.ctrl && name === 'b')) this.cursor = this.prevIndex(this.cursor);
    else if (name === 'right' || (key.ctrl && name === 'f')) this.cursor = this.nextIndex(this.cursor);
    else if (name === 'home' || (key.ctrl && name === 'a')) this.cursor = this.lineStart();
    else if (name === 'end' || (key.ctrl && name === 'e')) this.cursor = this.lineEnd();
    else if (key.ctrl && name === 'u') {
      this.text = this.text.slice(0, this.lineStart()) + this.text.slice(this.cursor);
      this.cursor = this.lineStart();
    } else if (key.ctrl && name === 'k') this.text = this.text.slice(0, this.cursor) + this.text.slice(this.lineEnd());
    else if (key.ctrl && name === 'w') this.deleteWordBack();
    else if (name === 'up' || (key.ctrl && name === 'p')) this.moveVertical(-1);
    else if (name === 'down' || (key.ctrl && name === 'n')) this.moveVertical(1);
    return { type: 'none' };
  }

  /**
   * Rows to draw, hard-wrapped to `width`, with the cursor's row and column. The first row starts
   * with `prompt`; later rows are indented as deep.
   */
  layout(width: number, prompt: string, promptWidth: number): { rows: string[]; cursor: { row: number; col: number } } {
    const rows: string[] = [];
    let cursor = { row: 0, col: promptWidth };
    let offset = 0;
    this.text.split('\n').forEach((line, index) => {
      let row = index === 0 ? prompt : ' '.repeat(promptWidth);
      let col = promptWidth;
      const place = (at: number) => {
        if (at === this.cursor) cursor = { row: rows.length, col };
      };
      let at = offset;
      for (const ch of line) {
        const w = ch === '\t' ? TAB.length : charWidth(ch.codePointAt(0)!);
        if (col + w > width) {
          rows.push(row);
          row = ' '.repeat(promptWidth);
          col = promptWidth;
        }
        place(at);
        row += ch === '\t' ? TAB : ch;
        col += w;
        at += ch.length;
      }
      place(at);
      rows.push(row);
      offset = at + 1;
    });
    return { rows, cursor };
  }

  private insert(text: string): void {
    this.text = this.text.slice(0, this.cursor) + text + this.text.slice(this.cursor);
    this.cursor += text.length;
  }

  private deleteWordBack(): void {
    const before = this.text.slice(0, this.cursor);
    const start = before.replace(/\S+\s*$|\s+$/, '').length;
    this.text = this.text.slice(0, start) + this.text.slice(this.cursor);
    this.cursor = start;
  }

  private lineStart(): number {
    return this.text.lastIndexOf('\n', this.cursor - 1) + 1;
  }

  private lineEnd(): number {
    const end = this.text.indexOf('\n', this.cursor);
    return end < 0 ? this.text.length : end;
  }

  private moveVertical(direction: -1 | 1): void {
    const start = this.lineStart();
    const column = this.cursor - start;
    if (direction < 0 && start > 0) {
      const prevStart = this.text.lastIndexOf('\n', start - 2) + 1;
      this.cursor = Math.min(prevStart + column, start - 1);
      return;
    }
    const end = this.lineEnd();
    if (direction > 0 && end < this.text.length) {
      const nextEnd = this.text.indexOf('\n', end + 1);
      this.cursor = Math.min(end + 1 + column, nextEnd < 0 ? this.text.length : nextEnd);
      return;
    }
    this.walkHistory(direction);
  }

  private walkHistory(direction: -1 | 1): void {
    const entries = this.history?.entries ?? [];
    if (!entries.length) return;
    if (this.historyIndex === undefined) {
      if (direction > 0) return;
      this.draft = this.text;
      this.historyIndex = entries.length;
    }
    const next = this.historyIndex + direction;
    if (next < 0) return;
    if (next >= entries.length) {
      this.historyIndex = undefined;
      this.set(this.draft);
      return;
    }
    this.historyIndex = next;
    this.set(entries[next]!);
  }

  private prevIndex(index: number): number {
    if (index <= 0) return 0;
    const code = this.text.charCodeAt(index - 1);
    return code >= 0xdc00 && code <= 0xdfff && index >= 2 ? index - 2 : index - 1;
  }

  private nextIndex(index: number): number {
    if (index >= this.text.length) return this.text.length;
    const code = this.text.charCodeAt(index);
    return code >= 0xd800 && code <= 0xdbff ? index + 2 : index + 1;
  }
}
