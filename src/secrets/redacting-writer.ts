import { StreamRedactor } from '../session/stream-redactor.js';

export interface TextWriter {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

export interface RedactingWriter extends TextWriter {
  /** Writes what was held back (redacted): at the end of a piece of output that a key cannot span. */
  flush(): void;
}

/**
 * A writer whose output, taken as one stream, never holds a secret, whole or in parts: what is
 * written goes through one StreamRedactor, which holds back only an end that could begin a key
 * (at most the longest key less one character) until the next write or `flush`. The one wrapper
 * for a stream of text the CLI prints (one-shot stdout and stderr); it sits under the renderer,
 * which writes as it likes.
 */
export function redactingWriter(out: TextWriter, secrets: readonly string[]): RedactingWriter {
  if (secrets.length === 0) return { write: (text) => out.write(text), flush: () => undefined, get isTTY() { return out.isTTY; } };
  const streams = new StreamRedactor([...secrets]);
  return {
    write(text) {
      const shown = streams.push('out', text);
      return shown === '' ? true : out.write(shown);
    },
    flush() {
      for (const [, text] of streams.flush()) out.write(text);
    },
    get isTTY() {
      return out.isTTY;
    },
  };
}
