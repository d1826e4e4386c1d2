import { readFileSync } from 'node:fs';
import MiniSearch from 'minisearch';
import { chunkText } from './chunk-text.js';
import { extractText } from './extract-text.js';
import { INDEX_FORMAT, readIndexFile, writeIndexFile, type StoredFile } from './index-file.js';
import type { KnowledgeSource } from './knowledge-source.js';
import { listDocFiles, type DocFile } from './list-doc-files.js';

interface ChunkDocument {
  id: string;
  file: string;
  line: number;
  endLine: number;
  title: string;
  text: string;
}

export interface DocsHit {
  path: string;
  line: number;
  endLine: number;
  title: string;
  score: number;
  /** Query terms that matched, for the excerpt. */
  terms: string[];
}

export interface IndexReport {
  files: number;
  chunks: number;
  /** Files read this time (new or changed) and dropped (deleted). */
  read: number;
  dropped: number;
  /** Why the stored index was not used, when it was not. */
  rebuilt?: 'missing' | 'torn' | 'old-format';
  /** Bytes on disk, when written (nothing changed: not written). */
  bytes?: number;
  ms: number;
}

export interface BuildOptions {
  /** Called as files are read: done of total. */
  onProgress?(done: number, total: number): void;
}

// Words in nearly every section: indexing them costs space, and a query scoring every section on them costs time.
const STOP_WORDS = new Set('a an and are as at be by do does for from has have how i if in is it its of on or our so that the their then there these this to was we what when where which who why will with you your'.split(' '));

const OPTIONS = {
  processTerm: (term: string) => {
    const lowered = term.toLowerCase();
    return STOP_WORDS.has(lowered) ? null : lowered;
  },
  fields: ['title', 'text'],
  storeFields: ['file', 'line', 'endLine', 'title'],
  // No fuzzy matching: on a large vocabulary it multiplies query time for little gain on technical words.
  searchOptions: { boost: { title: 2 }, prefix: (term: string) => term.length > 4, combineWith: 'OR' as const },
  // Vacuumed here, before saving, rather than in the background after a save.
  autoVacuum: false,
};

/** A BM25 index of the sources' chunks, loaded from `path` and brought up to date (mtime and size). */
export class DocsIndex {
  private constructor(
    private readonly search_: MiniSearch<ChunkDocument>,
    readonly report: IndexReport,
  ) {}

  /** Loads the stored index, re-reads changed files, drops deleted ones, and saves it when anything changed. */
  static async open(sources: readonly KnowledgeSource[], path: string, options: BuildOptions = {}): Promise<DocsIndex> {
    const started = performance.now();
    const loaded = readIndexFile(path);
    const stored = loaded.ok ? loaded.stored : { format: INDEX_FORMAT, files: {}, nextId: 0, index: '' };
    const mini = loaded.ok ? MiniSearch.loadJSON<ChunkDocument>(stored.index, OPTIONS) : new MiniSearch<ChunkDocument>(OPTIONS);
    const current = listDocFiles(sources);
    const seen = new Set(current.map((file) => file.path));
    let dropped = 0;
    for (const [file, entry] of Object.entries(stored.files)) {
      if (seen.has(file)) continue;
      mini.discardAll(entry.ids);
      delete stored.files[file];
      dropped++;
    }
    const changed = current.filter((file) => !unchanged(stored.files[file.path], file));
    changed.forEach((file, done) => {
      const earlier = stored.files[file.path];
      if (earlier) mini.discardAll(earlier.ids);
      const documents = chunkFile(file, () => `${(stored.nextId++).toString(36)}`);
      mini.addAll(documents);
      stored.files[file.path] = { size: file.size, mtimeMs: file.mtimeMs, ids: documents.map((d) => d.id) };
      options.onProgress?.(done + 1, changed.length);
    });
    let bytes: number | undefined;
    if (!loaded.ok || changed.length > 0 || dropped > 0) {
      // Discarded chunks stay in the term tree until a vacuum; clean up once they are a tenth of it.
      if (mini.dirtFactor > 0.1) await mini.vacuum({ batchWait: 0 });
      bytes = writeIndexFile(path, { format: INDEX_FORMAT, files: stored.files, nextId: stored.nextId, index: JSON.stringify(mini) });
    }
    const report: IndexReport = {
      files: current.length,
      chunks: mini.documentCount,
      read: changed.length,
      dropped,
      ...(loaded.ok ? {} : { rebuilt: loaded.reason }),
      ...(bytes !== undefined ? { bytes } : {}),
      ms: Math.round(performance.now() - started),
    };
    return new DocsIndex(mini, report);
  }

  /** The best chunks for `query`, best first. */
  search(query: string, limit: number): DocsHit[] {
    return this.search_
      .search(query)
      .slice(0, limit)
      .map((hit) => ({ path: hit.file as string, line: hit.line as number, endLine: hit.endLine as number, title: hit.title as string, score: hit.score, terms: hit.terms }));
  }
}

function unchanged(stored: StoredFile | undefined, file: DocFile): boolean {
  return stored !== undefined && stored.size === file.size && stored.mtimeMs === file.mtimeMs;
}

function chunkFile(file: DocFile, nextId: () => string): ChunkDocument[] {
  let raw: string;
  try {
    raw = readFileSync(file.path, 'utf8');
  } catch {
    return [];
  }
  if (raw.includes('\0')) return [];
  const markdown = /\.(md|markdown|mdx|html?)$/i.test(file.path);
  return chunkText(extractText(file.path, raw), markdown).map((chunk) => ({ id: nextId(), file: file.path, ...chunk }));
}
