import type { Key } from './key-parser.js';

/**
 * Hands decoded keys out one at a time. A key that answers a question (a picker, a y/n) may change
 * who wants the next one — the picker waits for another key, or closes and the prompt gets it — and
 * that is known only once the question's code has run. So the rest of a burst (several keys in one
 * read: typed fast, pasted, arrows back to back) waits until then instead of falling through to the prompt.
 */
export class KeyQueue {
  private readonly keys: Key[] = [];
  private waiting = false;

  /** `dispatch` returns true when a question took the key; `drained` runs after each batch handed out. */
  constructor(
    private readonly dispatch: (key: Key) => boolean,
    private readonly drained: () => void,
  ) {}

  push(keys: readonly Key[]): void {
    this.keys.push(...keys);
    if (!this.waiting) this.drain();
  }

  private drain(): void {
    this.waiting = false;
    while (this.keys.length) {
      const answered = this.dispatch(this.keys.shift()!);
      if (answered && this.keys.length) {
        this.waiting = true;
        // After the promise callbacks the answer set off: by then a question that wants more keys is waiting again.
        setImmediate(() => this.drain());
        break;
      }
    }
    this.drained();
  }
}

/**
 * A number typed in a list (1-based): the digits so far, extended by `digit` while that still names an
 * item, else started again from it. Returns the digits kept and the item's index (undefined: none).
 */
export function typeNumber(typed: string, digit: string, items: number): { typed: string; index: number | undefined } {
  for (const candidate of [typed + digit, digit]) {
    const n = Number(candidate);
    if (n >= 1 && n <= items) return { typed: candidate, index: n - 1 };
  }
  return { typed: '', index: undefined };
}
