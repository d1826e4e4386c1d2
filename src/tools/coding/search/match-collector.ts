import { byPath, comparePaths } from './path-order.js';

/** One line of grep output: a match (with the index of its first match) or a context line. */
export interface LineRecord {
  line: number;
  /** The line without its terminator ("\n" and a "\r" before it). */
  text: string;
  /** UTF-16 index in `text` where the first match starts; absent for context lines. */
  matchIndex?: number;
}

export interface FileMatches {
  path: string;
  /** In line order: the first `maxResults` matches and the context around them. */
  records: LineRecord[];
  matchCount: number;
}

interface OpenFile extends FileMatches {
  kept: number;
  lastKeptLine: number;
  store: boolean;
}

/**
 * Gathers the lines both engines report, in whatever file order they arrive, keeping only what
 * the sorted output can show: per file the first `maxResults` matches (plus context), and overall
 * the files that sort before the point where `maxResults` matches are already held. Every match
 * of the files searched is counted, so the output can say how many were left out.
 */
export class MatchCollector {
  private readonly files: FileMatches[] = [];
  private storedMatches = 0;
  /** Files sorting after this path cannot be shown; they are only counted. */
  private cutoff: string | undefined;
  private current: OpenFile | undefined;
  totalMatches = 0;
  totalFiles = 0;

  constructor(
    private readonly maxResults: number,
    private readonly context: number,
  ) {}

  beginFile(path: string): void {
    this.current = { path, records: [], matchCount: 0, kept: 0, lastKeptLine: -Infinity, store: this.cutoff === undefined || comparePaths(path, this.cutoff) <= 0 };
  }

  addMatch(line: number, text: string, matchIndex: number): void {
    const file = this.current!;
    file.matchCount++;
    if (!file.store || file.kept >= this.maxResults) return;
    file.kept++;
    file.lastKeptLine = line;
    file.records.push({ line, text, matchIndex });
  }

  /** False when the next match would only be counted, so its text need not even be decoded. */
  wantsMatchText(): boolean {
    const file = this.current!;
    return file.store && file.kept < this.maxResults;
  }

  countMatch(): void {
    this.current!.matchCount++;
  }

  addContext(line: number, text: string): void {
    const file = this.current!;
    if (!file.store) return;
    if (file.kept < this.maxResults || line <= file.lastKeptLine + this.context) file.records.push({ line, text });
  }

  /** `keep: false` drops the file (it turned out to be binary). */
  endFile(keep = true): void {
    const file = this.current!;
    this.current = undefined;
    if (!keep || file.matchCount === 0) return;
    this.totalMatches += file.matchCount;
    this.totalFiles++;
    if (!file.store) return;
    this.files.push({ path: file.path, records: file.records, matchCount: file.matchCount });
    this.storedMatches += file.kept;
    if (this.storedMatches > 4 * this.maxResults) this.prune();
  }

  private prune(): void {
    this.files.sort(byPath);
    let held = 0;
    let keep = 0;
    while (keep < this.files.length && held < this.maxResults) held += Math.min(this.files[keep++]!.matchCount, this.maxResults);
    this.cutoff = this.files[keep - 1]!.path;
    this.files.length = keep;
    this.storedMatches = held;
  }

  /** The held files, in path order (path-order.ts). */
  sorted(): FileMatches[] {
    return [...this.files].sort(byPath);
  }
}

