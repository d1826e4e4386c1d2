import { createRedactor } from './redact.js';

/**
 * Redaction for text that arrives in pieces (streamed deltas): a key split across pieces is
 * never written in parts. Each stream (a key: "text", "reasoning", per agent) holds back only the
 * end of what it received that could still be the start of a secret, at most the longest secret's
 * length less one; the rest goes out redacted. `flush` gives a stream's held end when it is over.
 */
export class StreamRedactor {
  private readonly redact: (text: string) => string;
  private readonly forms: string[];
  private readonly held = new Map<string, string>();

  constructor(secrets: string[]) {
    this.redact = createRedactor(secrets);
    this.forms = [...new Set(secrets.flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)]))];
  }

  /** What may be written of this stream now, redacted. */
  push(stream: string, text: string): string {
    const buffer = (this.held.get(stream) ?? '') + text;
    let cut = buffer.length - this.openPrefix(buffer);
    // The cut never splits a whole key (one that ends the buffer goes out whole, redacted).
    for (let end = this.spanning(buffer, cut); end !== undefined; end = this.spanning(buffer, cut)) {
      cut = buffer.length - this.openPrefix(buffer.slice(end));
    }
    this.held.set(stream, buffer.slice(cut));
    return this.redact(buffer.slice(0, cut));
  }

  /** The streams holding text, each with that text redacted; all are emptied. */
  flush(): Array<[string, string]> {
    const out = [...this.held].filter(([, text]) => text !== '').map(([stream, text]): [string, string] => [stream, this.redact(text)]);
    this.held.clear();
    return out;
  }

  /** The end of a key that starts before `cut` and ends after it, if there is one. */
  private spanning(text: string, cut: number): number | undefined {
    for (const form of this.forms) {
      const at = text.indexOf(form, Math.max(0, cut - form.length + 1));
      if (at !== -1 && at < cut && at + form.length > cut) return at + form.length;
    }
    return undefined;
  }

  /** The length of the longest end of `text` that is the start of a secret (not the whole of one). */
  private openPrefix(text: string): number {
    let longest = 0;
    for (const form of this.forms) {
      for (let length = Math.min(text.length, form.length - 1); length > longest; length--) {
        if (text.endsWith(form.slice(0, length))) {
          longest = length;
          break;
        }
      }
    }
    return longest;
  }
}
