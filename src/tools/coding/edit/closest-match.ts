import { splitNeedle } from './line-match.js';

export interface ClosestRegion {
  /** 1-based line number of the region's first line. */
  firstLine: number;
  lines: string[];
  /** Mean line similarity, 0..1. */
  similarity: number;
}

/** Lines longer than this are compared by their start only: enough to locate, cheap on minified files. */
const COMPARE_CHARS = 400;
/** Windows scored in full: the best probe-line hits plus exact anchors. */
const MAX_CANDIDATES = 64;
const MIN_SIMILARITY = 0.3;

/**
 * The window of the file (as many lines as old_string has) that looks most like old_string, scored
 * by the mean bigram similarity of its lines. Linear in the file: a probe line (old_string's most
 * distinctive one) picks candidate windows, and only those are scored in full.
 */
export function findClosestRegion(text: string, oldString: string): ClosestRegion | undefined {
  const fileLines = text.split('\n');
  const wanted = splitNeedle(oldString).lines.map((line) => line.trim().slice(0, COMPARE_CHARS));
  const k = Math.min(wanted.length, fileLines.length);
  const probe = wanted.reduce((best, line, i) => (line.length > (wanted[best] as string).length ? i : best), 0);
  const probeLine = wanted[probe] as string;
  if (probeLine === '') return undefined;

  const trimmed = fileLines.map((line) => line.trim().slice(0, COMPARE_CHARS));
  const profile = new BigramProfile(probeLine);
  const hits = trimmed
    .map((line, index) => ({ index, score: line === probeLine ? 1 : profile.dice(line) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, MAX_CANDIDATES);
  const starts = new Set(hits.map((hit) => clamp(hit.index - probe, 0, fileLines.length - k)));

  const profiles = wanted.map((line) => new BigramProfile(line));
  let best: ClosestRegion | undefined;
  for (const start of starts) {
    let total = 0;
    for (let i = 0; i < k; i++) {
      const line = trimmed[start + i] as string;
      total += line === wanted[i] ? 1 : (profiles[i] as BigramProfile).dice(line);
    }
    const score = total / wanted.length;
    if (!best || score > best.similarity) best = { firstLine: start + 1, lines: fileLines.slice(start, start + k), similarity: score };
  }
  return best && best.similarity >= MIN_SIMILARITY ? best : undefined;
}

/** Sørensen–Dice coefficient over character bigrams (with multiplicity), against one reference line. */
class BigramProfile {
  private readonly slots = new Map<number, number>();
  private readonly counts: number[] = [];
  private readonly used: Int32Array;
  private readonly pairs: number;

  constructor(reference: string) {
    this.pairs = Math.max(0, reference.length - 1);
    for (let i = 0; i + 1 < reference.length; i++) {
      const key = bigramKey(reference, i);
      const slot = this.slots.get(key);
      if (slot === undefined) {
        this.slots.set(key, this.counts.length);
        this.counts.push(1);
      } else this.counts[slot] = (this.counts[slot] as number) + 1;
    }
    this.used = new Int32Array(this.counts.length);
  }

  dice(line: string): number {
    const pairs = line.length - 1;
    if (pairs < 1 || this.pairs < 1) return 0;
    this.used.fill(0);
    let shared = 0;
    for (let i = 0; i < pairs; i++) {
      const slot = this.slots.get(bigramKey(line, i));
      if (slot !== undefined && (this.used[slot] as number) < (this.counts[slot] as number)) {
        this.used[slot] = (this.used[slot] as number) + 1;
        shared++;
      }
    }
    return (2 * shared) / (pairs + this.pairs);
  }
}

function bigramKey(text: string, i: number): number {
  return text.charCodeAt(i) * 65536 + text.charCodeAt(i + 1);
}

function clamp(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(max, value));
}
