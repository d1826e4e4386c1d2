/**
 * Per-element work over a list that grows at its end, as a conversation's history does from round
 * to round: only the elements past the part shared (by identity) with the list seen last are
 * worked on again. A pointer comparison costs a nanosecond; the work it saves (a WeakMap lookup, a
 * conversion, a byte count) costs a hundred, and a round would otherwise pay it for the whole history.
 */

/** How many leading elements two lists share, by identity. */
export function sharedPrefix<T>(a: readonly T[], b: readonly T[]): number {
  const end = Math.min(a.length, b.length);
  let i = 0;
  while (i < end && a[i] === b[i]) i++;
  return i;
}

/** `list.map(work)`, reusing the results for the shared prefix with the last list given. */
export class PrefixMap<T, U> {
  private input: T[] = [];
  private output: U[] = [];

  constructor(private readonly work: (item: T) => U) {}

  /** A fresh array each call (callers may append to it). */
  map(list: readonly T[]): U[] {
    this.extend(list);
    return this.output.slice();
  }

  private extend(list: readonly T[]): void {
    const keep = sharedPrefix(this.input, list);
    this.input.length = keep;
    this.output.length = keep;
    for (let i = keep; i < list.length; i++) {
      this.input.push(list[i]!);
      this.output.push(this.work(list[i]!));
    }
  }
}

/** The sum of `measure` over a list, reusing the running sums for the shared prefix with the last list given. */
export class PrefixSum<T> {
  private input: T[] = [];
  private sums: number[] = [0];

  constructor(private readonly measure: (item: T) => number) {}

  total(list: readonly T[]): number {
    const keep = sharedPrefix(this.input, list);
    this.input.length = keep;
    this.sums.length = keep + 1;
    for (let i = keep; i < list.length; i++) {
      this.input.push(list[i]!);
      this.sums.push(this.sums[i]! + this.measure(list[i]!));
    }
    return this.sums[list.length]!;
  }
}
