import { jsonErrorOffset } from './json-error-offset.js';

/** A config file that does not parse, with where: 1-based line and column, and the line itself. */
export class ConfigTextError extends Error {
  override name = 'ConfigTextError';
  constructor(
    readonly format: 'JSON' | 'TOML',
    readonly line: number,
    readonly column: number,
    readonly reason: string,
    /** The offending line with a caret under the column, for a message of more than one line. */
    readonly excerpt: string,
  ) {
    super(`line ${line}, column ${column}: ${reason}`);
  }
}

/** JSON.parse for files people edit: an error names the line and column, not a character offset. */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const found = jsonErrorOffset(text);
    // JSON.parse and the scan disagree only on text the scan cannot judge (none known): keep JSON.parse's words.
    throw located('JSON', text, found?.offset ?? text.length, found?.reason ?? (error as Error).message);
  }
}

export function located(format: 'JSON' | 'TOML', text: string, offset: number, reason: string): ConfigTextError {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  return new ConfigTextError(format, line, column, reason, excerptAt(text, line, column));
}

export function excerptAt(text: string, line: number, column: number): string {
  const shown = (text.split('\n')[line - 1] ?? '').replace(/\r$/, '');
  const width = String(line).length;
  return `${line} | ${shown.slice(0, 200)}\n${' '.repeat(width)} | ${' '.repeat(Math.min(column - 1, 200))}^`;
}
