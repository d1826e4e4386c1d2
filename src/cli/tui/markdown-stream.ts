import { CodeHighlighter } from './highlight.js';
import type { Theme } from '../display/theme.js';
import { renderMarkdownTable } from '../display/markdown-table.js';

/**
 * Renders Markdown as it streams in, line by line. A complete line is rendered once and is final
 * (it goes to the scrollback); only the partial last line is re-rendered as text arrives. Block
 * state (inside a fence, its language) is carried from line to line, so the output does not
 * depend on where the chunks were split. A table is the one block held whole: its rows are kept
 * (and shown provisionally) until the table ends, then drawn aligned to the width.
 */
export class MarkdownStream {
  private buffer = '';
  private fence: { marker: string; highlighter: CodeHighlighter } | undefined;
  /** Lines that may be a table: a line with a pipe, then (once confirmed) its delimiter and rows. */
  private table: string[] | undefined;

  constructor(
    private readonly theme: Theme,
    /** The columns a table may take (the screen's width, read when the table is drawn). */
    private readonly width: () => number = () => 100,
  ) {}

  /** Adds streamed text; returns the lines it completed, rendered. */
  push(text: string): string[] {
    this.buffer += text;
    const lines: string[] = [];
    let newline = this.buffer.indexOf('\n');
    while (newline >= 0) {
      lines.push(...this.completeLine(this.buffer.slice(0, newline).replace(/\r$/, '')));
      this.buffer = this.buffer.slice(newline + 1);
      newline = this.buffer.indexOf('\n');
    }
    return lines;
  }

  /** One whole line: held while it may belong to a table, else rendered for good. */
  private completeLine(line: string): string[] {
    if (this.fence) return [this.renderLine(line, true)];
    const held = this.table;
    if (held) {
      const confirmed = held.length > 1;
      if (confirmed ? isTableRow(line) : isDelimiterRow(line)) {
        held.push(line);
        return [];
      }
      return [...this.flushTable(), ...this.completeLine(line)];
    }
    if (isTableRow(line)) {
      this.table = [line];
      return [];
    }
    return [this.renderLine(line, true)];
  }

  /** The held lines, drawn as a table when they are one, else each as the line it is. */
  private flushTable(): string[] {
    const held = this.table ?? [];
    this.table = undefined;
    return this.drawTable(held) ?? held.flatMap((line) => this.renderLine(line, true));
  }

  private drawTable(lines: string[]): string[] | undefined {
    if (lines.length < 2) return undefined;
    return renderMarkdownTable(lines, this.theme, this.width(), (text) => renderInline(text, this.theme));
  }

  /**
   * The partial last line, rendered provisionally (empty when there is none). With `tailChars`,
   * a longer line is rendered from a word break that many characters before its end: only its
   * bottom rows fit on the screen anyway, and rendering the whole of a long paragraph on every
   * delta made streaming it quadratic.
   */
  partial(tailChars = Infinity): string | undefined {
    if (this.table) {
      const rows = isTableRow(this.buffer) ? [...this.table, this.buffer] : this.table;
      const drawn = this.drawTable(rows)?.join('\n') ?? rows.map((line) => renderInline(line, this.theme)).join('\n');
      return rows === this.table && this.buffer ? `${drawn}\n${renderInline(this.buffer, this.theme)}` : drawn;
    }
    if (!this.buffer) return undefined;
    if (this.buffer.length <= tailChars) return this.renderLine(this.buffer, false);
    const from = this.buffer.length - tailChars;
    const space = this.buffer.indexOf(' ', from);
    return this.renderLine(this.buffer.slice(space < 0 ? from : space + 1), false);
  }

  /** Ends the stream: the partial line becomes final. */
  end(): string[] {
    const rest = this.buffer;
    this.buffer = '';
    const lines = rest ? this.completeLine(rest) : [];
    if (this.table) lines.push(...this.flushTable());
    this.fence = undefined;
    return lines;
  }

  get inCodeBlock(): boolean {
    return this.fence !== undefined;
  }

  private renderLine(line: string, final: boolean): string {
    const t = this.theme;
    const fenceMatch = /^\s*(```+|~~~+)\s*([\w+#.-]*)/.exec(line);
    if (this.fence) {
      if (fenceMatch && fenceMatch[1]!.startsWith(this.fence.marker) && line.trim() === fenceMatch[1]) {
        if (final) this.fence = undefined;
        return t.dim('╰──');
      }
      // A provisional render must not advance the highlighter's block-comment state.
      return `${t.dim('│')} ${final ? this.fence.highlighter.line(line) : line}`;
    }
    if (fenceMatch) {
      const language = fenceMatch[2] ?? '';
      if (final) this.fence = { marker: fenceMatch[1]!, highlighter: new CodeHighlighter(language, t) };
      return t.dim(`╭── ${language}`.trimEnd());
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const text = renderInline(heading[2]!, t);
      return heading[1]!.length <= 2 ? t.bold(t.cyan(text)) : t.bold(text);
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) return t.dim('─'.repeat(40));
    const quote = /^\s*>\s?(.*)$/.exec(line);
    if (quote) return `${t.dim('│')} ${t.italic(renderInline(quote[1]!, t))}`;
    const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(line);
    if (bullet) return `${bullet[1]}${t.cyan('•')} ${renderInline(bullet[2]!, t)}`;
    const numbered = /^(\s*)(\d+[.)])\s+(.*)$/.exec(line);
    if (numbered) return `${numbered[1]}${t.cyan(numbered[2]!)} ${renderInline(numbered[3]!, t)}`;
    return renderInline(line, t);
  }
}

/** A line that can be a table row: it has a cell border (GFM lets the outer pipes be left out). */
function isTableRow(line: string): boolean {
  return line.includes('|') && line.trim() !== '';
}

/** The row under a table's header: cells of dashes, each with an optional colon at either end. */
function isDelimiterRow(line: string): boolean {
  return /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/.test(line) && line.includes('-');
}

/** Inline spans: `code`, **bold**, *italic* / _italic_, [links](url). Unclosed markers stay as typed. */
export function renderInline(text: string, t: Theme): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch !== '`' && ch !== '*' && ch !== '_' && ch !== '[') {
      // Copy the run of plain text up to the next marker in one go.
      const next = text.slice(i).search(/[`*_[]/);
      const end = next < 0 ? text.length : i + next;
      out += text.slice(i, end);
      i = end;
      continue;
    }
    const rest = text.slice(i);
    const code = /^(`+)([^`]|[^`].*?[^`])\1(?!`)/.exec(rest);
    if (code) {
      out += t.yellow(code[2]!);
      i += code[0].length;
      continue;
    }
    const bold = /^(\*\*|__)(?=\S)(.+?)(?<=\S)\1/.exec(rest);
    if (bold) {
      out += t.bold(renderInline(bold[2]!, t));
      i += bold[0].length;
      continue;
    }
    const italic = /^([*_])(?=[^\s*_])(.+?)(?<=[^\s*_])\1(?![*_\w])/.exec(rest);
    if (italic && (italic[1] === '*' || !/\w/.test(text[i - 1] ?? ''))) {
      out += t.italic(renderInline(italic[2]!, t));
      i += italic[0].length;
      continue;
    }
    const link = /^\[([^\]]+)\]\(([^)\s]+)\)/.exec(rest);
    if (link) {
      out += `${t.underline(link[1]!)}${t.dim(` (${link[2]})`)}`;
      i += link[0].length;
      continue;
    }
    out += text[i];
    i++;
  }
  return out;
}
