import { sanitizeLine } from '../display/sanitize.js';
import { wrapLine } from '../display/text-width.js';

export interface TerminalOutput {
  write(text: string): unknown;
  columns?: number;
  rows?: number;
}

const SYNC_START = '\x1b[?2026h';
const SYNC_END = '\x1b[?2026l';
const HIDE_CURSOR = '\x1b[?25l';
const SHOW_CURSOR = '\x1b[?25h';

/**
 * Scrollback plus a redrawn bottom area. Finished output is written once, above the live area,
 * and is never touched again; the live area (partial line, running tools, input, status) is
 * erased and redrawn in one write, inside a synchronized-update bracket, so it does not flicker.
 * Rows are wrapped to one column less than the terminal so the cursor never sits in the
 * pending-wrap state that makes relative moves ambiguous.
 */
export class LiveScreen {
  private liveRows: string[] = [];
  /** Committed lines not yet written: they go out with the next frame. */
  private pending: string[] = [];
  private flushQueued = false;
  /** Row of the live area the cursor is on, counted from its top. */
  private cursorRow = 0;

  /** With `colour: false` (NO_COLOR) even the colours in a tool's output or an answer are removed. */
  constructor(
    private readonly out: TerminalOutput,
    private readonly options: { colour?: boolean } = {},
  ) {}

  get width(): number {
    return Math.max(10, (this.out.columns ?? 80) - 1);
  }

  private get height(): number {
    return Math.max(3, (this.out.rows ?? 24) - 1);
  }

  /**
   * Wraps logical lines to the terminal width. A line holding newlines is several lines, and
   * each is sanitized first: a stray cursor move or newline would break the row count the
   * live area is redrawn by (and a tool's output could clear the screen or retitle the window).
   */
  wrap(lines: string[]): string[] {
    return lines.flatMap((line) => line.split(/\r?\n/)).flatMap((line) => wrapLine(sanitizeLine(line, this.options.colour ?? true), this.width));
  }

  /**
   * Queues finished lines for the scrollback. They are written with the next `render()` (or at
   * the end of the current tick), so a burst of commits and the new live area make one frame.
   */
  commit(lines: string[]): void {
    if (!lines.length) return;
    this.pending.push(...this.wrap(lines));
    if (this.flushQueued) return;
    this.flushQueued = true;
    queueMicrotask(() => {
      this.flushQueued = false;
      if (this.pending.length) this.draw(this.liveRows, this.lastCursor);
    });
  }

  /**
   * Redraws the live area. `cursor` (row and column within `rows`, after wrapping) places the
   * terminal cursor for typing; without it the cursor is hidden.
   */
  render(lines: string[], cursor?: { row: number; col: number }): void {
    this.draw(this.wrap(lines), cursor);
  }

  /** Leaves the live area as it is and moves below it (before exiting). */
  release(): void {
    if (this.pending.length) this.draw(this.liveRows, undefined);
    const down = this.liveRows.length - 1 - this.cursorRow;
    this.out.write(`${down > 0 ? `\x1b[${down}B` : ''}\r\n${SHOW_CURSOR}`);
    this.liveRows = [];
    this.cursorRow = 0;
  }

  /** Forgets the live area without erasing it (after the screen was cleared externally). */
  reset(): void {
    this.liveRows = [];
    this.cursorRow = 0;
  }

  private lastCursor: { row: number; col: number } | undefined;

  private draw(live: string[], cursor: { row: number; col: number } | undefined): void {
    const committed = this.pending;
    this.pending = [];
    this.lastCursor = cursor;
    // Only the bottom of an over-tall live area is drawn: the cursor cannot move above the screen.
    const overflow = Math.max(0, live.length - this.height);
    const rows = live.slice(overflow);
    let frame = SYNC_START + HIDE_CURSOR + '\r';
    if (this.cursorRow > 0) frame += `\x1b[${this.cursorRow}A`;
    frame += '\x1b[J';
    for (const line of committed) frame += `${line}\x1b[0m\r\n`;
    frame += rows.join('\x1b[0m\r\n');
    let cursorRow = Math.max(0, rows.length - 1);
    if (cursor && cursor.row - overflow >= 0) {
      const target = cursor.row - overflow;
      const up = rows.length - 1 - target;
      if (up > 0) frame += `\x1b[${up}A`;
      frame += '\r';
      if (cursor.col > 0) frame += `\x1b[${cursor.col}C`;
      frame += SHOW_CURSOR;
      cursorRow = target;
    }
    frame += SYNC_END;
    this.out.write(frame);
    this.liveRows = rows;
    this.cursorRow = cursorRow;
  }
}
