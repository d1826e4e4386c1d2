import { sanitizeLine } from './sanitize.js';

interface Stream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface SafeWriter {
  write(text: string): unknown;
  readonly isTTY: boolean;
}

/** Text of several lines made safe for a terminal: each line sanitised (colours kept unless `colour` is false). */
export function sanitizeText(text: string, colour = true): string {
  return text.split('\n').map((line) => sanitizeLine(line, colour)).join('\n');
}

/**
 * Every write of the CLI to stdout or stderr goes through one of these. Stderr is read by people,
 * so it is always sanitised; stdout is sanitised on a terminal, while a file or pipe gets the
 * answer's bytes as they are (what `vibe-agent … > out.txt` asked for).
 */
export function safeWriter(stream: Stream, always = false): SafeWriter {
  return {
    write: (text) => stream.write(always || stream.isTTY === true ? sanitizeText(text) : text),
    get isTTY() {
      return stream.isTTY === true;
    },
  };
}

export const safeStdout: SafeWriter = safeWriter(process.stdout);
export const safeStderr: SafeWriter = safeWriter(process.stderr, true);
