import { comparePathIn, comparePaths } from './path-order.js';
import { keepSmallest } from './select-smallest.js';

const MAX_ROOM = 65_536;

/**
 * The first `limit` paths in path order of all it is given, and how many it was given: what
 * `[...all].sort(comparePaths).slice(0, limit)` and `all.length` say, without keeping them all.
 * Paths are kept until there are `room` more than the limit, then cut back to the limit smallest;
 * the largest of those becomes the bar a later path must come before to be kept. Most paths of a
 * big listing fail it after one comparison, made in place while the path is still inside
 * ripgrep's output (`addIn`), so they never become strings at all. The room doubles at each cut,
 * so paths arriving in reverse order (each one kept) cost a few cuts, not one per `limit` paths.
 */
export class PathHead {
  readonly #limit: number;
  #kept: string[] = [];
  /** How many more than the limit are kept before a cut. */
  #room: number;
  /** Set once `limit` paths are known to come before every later one that does not come before it. */
  #bar: string | undefined;
  #total = 0;

  constructor(limit: number) {
    this.#limit = Math.max(0, limit);
    this.#room = Math.max(this.#limit, 64);
  }

  /** How many paths were added. */
  get total(): number {
    return this.#total;
  }

  add(path: string): void {
    this.#total++;
    if (this.#limit === 0 || (this.#bar !== undefined && comparePaths(path, this.#bar) >= 0)) return;
    this.#kept.push(path);
    if (this.#kept.length >= this.#limit + this.#room) this.#cut();
  }

  /** add(text.slice(start, end)), the slice made only if the path may be kept. */
  addIn(text: string, start: number, end: number): void {
    if (this.#bar !== undefined && comparePathIn(text, start, end, this.#bar) >= 0) this.#total++;
    else this.add(text.slice(start, end));
  }

  /** The kept paths, in path order. */
  sorted(): string[] {
    if (this.#kept.length > this.#limit) this.#cut();
    return [...this.#kept].sort(comparePaths);
  }

  #cut(): void {
    keepSmallest(this.#kept, this.#limit);
    let bar = this.#kept[0];
    for (const path of this.#kept) if (comparePaths(path, bar!) > 0) bar = path;
    this.#bar = bar;
    this.#room = Math.min(2 * this.#room, MAX_ROOM);
  }
}
