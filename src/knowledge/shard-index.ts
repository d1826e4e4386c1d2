import MiniSearch from 'minisearch';
import { chunkText } from './chunk-text.js';
import { extractText } from './extract-text.js';
import { INDEX_FORMAT, newStamp, type ManifestShard, type StoredShard } from './index-file.js';
import type { DocFile } from './list-doc-files.js';
import { MAX_DOC_BYTES } from './knowledge-source.js';
import { readOwnText } from '../workspace/read-own-file.js';

export interface ChunkDocument {
  id: string;
  file: string;
  line: number;
  endLine: number;
  title: string;
  text: string;
}

// Words in nearly every section: indexing them costs space, and a query scoring every section on them costs time.
const STOP_WORDS = new Set('a an and are as at be by do does for from has have how i if in is it its of on or our so that the their then there these this to was we what when where which who why will with you your'.split(' '));

export const MINI_OPTIONS = {
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

/** A shard in memory: its MiniSearch index and what it was built from. */
export interface LiveShard {
  key: string;
  mini: MiniSearch<ChunkDocument>;
  stored: Omit<StoredShard, 'index'>;
}

export function emptyShard(key: string): LiveShard {
  return { key, mini: new MiniSearch<ChunkDocument>(MINI_OPTIONS), stored: { format: INDEX_FORMAT, key, stamp: '', files: {}, nextId: 0 } };
}

export function liveShard(stored: StoredShard): LiveShard {
  const { index, ...rest } = stored;
  return { key: stored.key, mini: MiniSearch.loadJS<ChunkDocument>(index, MINI_OPTIONS), stored: rest };
}

/**
 * Brings the shard to `files`: drops chunks of files gone, re-reads files whose size or mtime changed.
 * Returns how many files were read and dropped.
 */
export function updateShard(shard: LiveShard, files: readonly DocFile[], onRead: () => void): { read: number; dropped: number } {
  const stored = shard.stored;
  const seen = new Set(files.map((file) => file.path));
  let dropped = 0;
  for (const [path, entry] of Object.entries(stored.files)) {
    if (seen.has(path)) continue;
    shard.mini.discardAll(entry.ids);
    delete stored.files[path];
    dropped++;
  }
  let read = 0;
  for (const file of files) {
    const earlier = stored.files[file.path];
    if (earlier && earlier.size === file.size && earlier.mtimeMs === file.mtimeMs) continue;
    if (earlier) shard.mini.discardAll(earlier.ids);
    const documents = chunkFile(file, () => (stored.nextId++).toString(36));
    shard.mini.addAll(documents);
    stored.files[file.path] = { size: file.size, mtimeMs: file.mtimeMs, ids: documents.map((d) => d.id) };
    read++;
    onRead();
  }
  return { read, dropped };
}

/** The shard as written to disk, under a new stamp, and its manifest entry (bytes filled in by the writer). */
export function storedForm(shard: LiveShard, file: string): { stored: StoredShard; entry: ManifestShard } {
  const stamp = newStamp();
  shard.stored.stamp = stamp;
  const files: ManifestShard['files'] = {};
  for (const [path, entry] of Object.entries(shard.stored.files)) files[path] = [entry.size, entry.mtimeMs];
  return {
    stored: { ...shard.stored, stamp, index: shard.mini.toJSON() },
    entry: { file, stamp, bytes: 0, chunks: shard.mini.documentCount, files },
  };
}

function chunkFile(file: DocFile, nextId: () => string): ChunkDocument[] {
  let raw: string;
  try {
    raw = readOwnText(file.path, { within: [file.root], maxBytes: MAX_DOC_BYTES });
  } catch {
    return [];
  }
  if (raw.includes('\0')) return [];
  const markdown = /\.(md|markdown|mdx|html?)$/i.test(file.path);
  return chunkText(extractText(file.path, raw), markdown).map((chunk) => ({ id: nextId(), file: file.path, ...chunk }));
}
