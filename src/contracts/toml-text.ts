import { parse as parseToml, TomlError } from 'smol-toml';
import { ConfigTextError, excerptAt } from './config-text.js';

/** smol-toml's parse, its error in the same shape (it knows the line and column; its message repeats them in a block). */
export function parseTomlText(text: string): unknown {
  try {
    return parseToml(text);
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const reason = error.message.split('\n')[0]!.replace(/^Invalid TOML document: /, '');
    throw new ConfigTextError('TOML', error.line, error.column, reason, excerptAt(text, error.line, error.column));
  }
}
