import { rmSync, statSync } from 'node:fs';
import type MiniSearch from 'minisearch';
import { readManifest, readShard, shardPath, shardsDir, writeJsonAtomically, INDEX_FORMAT, type Manifest, type ManifestShard } from './index-file.js';
import type { KnowledgeSource } from './knowledge-source.js';
import { listDocFiles, type DocFile } from './list-doc-files.js';
import { planShards, shardFileName } from './shard-plan.js';
import { emptyShard, liveShard, storedForm, updateShard, type ChunkDocument, type LiveShard } from './shard-index.js';

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
  /** Shards in the index, shards written this time, and of those how many were torn or missing on disk. */
  shards: number;
  shardsWritten: number;
  shardsRepaired: number;
  /** Bytes written (shards and manifest), when anything was (nothing changed: not written). */
  bytes?: number;
  ms: number;
}

export interface BuildOptions {
  /** Called as files are read: done of total. */
  onProgress?(done: number, total: number): void;
  /** An entry passed over: a link leading outside its knowledge folder, a dangling link, a FIFO or device. */
  onSkipped?(path: string, reason: string): void;
}

/**
 * A BM25 index of the sources' chunks, stored as a manifest at `path` and shards beside it (one per
 * top-level folder, large folders split). Opening checks freshness from the manifest alone (a stat per
 * file) and rewrites only the shards whose files changed; a query loads shards on first use.
 *
 * Scores come from each shard's own statistics (document count, term frequencies, field lengths), so
 * they are comparable across shards only as far as the shards' contents are alike; the hit@5 check in
 * bench/knowledge.bench.mjs watches that this does not cost relevance.
 */
export class DocsIndex {
  private readonly loaded = new Map<string, MiniSearch<ChunkDocument>>();

  private constructor(
    private readonly path: string,
    private readonly manifest: Manifest,
    private readonly plan: Map<string, DocFile[]>,
    readonly report: IndexReport,
  ) {}

  /** Checks the stored index against the files, updates the shards that changed, and saves the manifest when anything did. */
  static async open(sources: readonly KnowledgeSource[], path: string, options: BuildOptions = {}): Promise<DocsIndex> {
    const started = performance.now();
    const loaded = readManifest(path);
    // A torn manifest or another format: start clean, so no shard of unknown shape is ever read.
    if (!loaded.ok && loaded.reason !== 'missing') rmSync(shardsDir(path), { recursive: true, force: true });
    const old = loaded.ok ? loaded.manifest.shards : {};
    const files = listDocFiles(sources, options.onSkipped);
    const plan = planShards(files);
    const next: Manifest = { format: INDEX_FORMAT, shards: {} };
    const stale: Array<[string, DocFile[], ManifestShard | undefined, boolean]> = [];
    let toRead = 0;
    for (const [key, shardFiles] of plan) {
      const entry = old[key];
      const whole = entry !== undefined && shardOnDisk(path, entry);
      if (whole && sameFiles(entry, shardFiles)) next.shards[key] = entry;
      else {
        stale.push([key, shardFiles, entry, whole]);
        toRead += whole ? shardFiles.filter((file) => !sameFile(entry.files[file.path], file)).length : shardFiles.length;
      }
    }
    const index = new DocsIndex(path, next, plan, { files: files.length, chunks: 0, read: 0, dropped: 0, shards: plan.size, shardsWritten: 0, shardsRepaired: 0, ms: 0 });
    const report = index.report;
    let done = 0;
    let bytes = 0;
    for (const [key, shardFiles, entry, whole] of stale) {
      const stored = entry && whole ? readShard(shardPath(path, entry.file), key, entry.stamp) : undefined;
      if (entry && !stored) report.shardsRepaired++;
      const shard = stored ? liveShard(stored) : emptyShard(key);
      const counts = updateShard(shard, shardFiles, () => options.onProgress?.(++done, Math.max(toRead, done)));
      report.read += counts.read;
      report.dropped += counts.dropped;
      // Discarded chunks stay in the term tree until a vacuum; clean up once they are a tenth of it.
      if (shard.mini.dirtFactor > 0.1) await shard.mini.vacuum({ batchWait: 0 });
      bytes += index.saveShard(shard);
    }
    const removed = Object.entries(old).filter(([key]) => !plan.has(key));
    for (const [, entry] of removed) report.dropped += Object.keys(entry.files).length;
    if (!loaded.ok || stale.length > 0 || removed.length > 0) {
      // The manifest last: a reader never finds it naming a shard not yet written.
      bytes += writeJsonAtomically(path, next);
      for (const [, entry] of removed) rmSync(shardPath(path, entry.file), { force: true });
      report.bytes = bytes;
    }
    report.chunks = Object.values(next.shards).reduce((sum, entry) => sum + entry.chunks, 0);
    if (!loaded.ok) report.rebuilt = loaded.reason;
    report.ms = Math.round(performance.now() - started);
    return index;
  }

  /** The best chunks for `query`, best first, merged from every shard by score. */
  search(query: string, limit: number): DocsHit[] {
    const hits: DocsHit[] = [];
    for (const key of Object.keys(this.manifest.shards)) {
      // Each shard's results come sorted: its best `limit` are all the merge can use.
      for (const hit of this.shard(key).search(query).slice(0, limit)) {
        hits.push({ path: hit.file as string, line: hit.line as number, endLine: hit.endLine as number, title: hit.title as string, score: hit.score, terms: hit.terms });
      }
    }
    return hits.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path) || a.line - b.line).slice(0, limit);
  }

  /** Loads every shard now rather than at the first query (a warm-up). */
  loadAll(): void {
    for (const key of Object.keys(this.manifest.shards)) this.shard(key);
  }

  /** A shard's index, loaded on first use; one found torn or overwritten since is rebuilt from its files. */
  private shard(key: string): MiniSearch<ChunkDocument> {
    const cached = this.loaded.get(key);
    if (cached) return cached;
    const entry = this.manifest.shards[key]!;
    const stored = readShard(shardPath(this.path, entry.file), key, entry.stamp);
    if (stored) {
      const mini = liveShard(stored).mini;
      this.loaded.set(key, mini);
      return mini;
    }
    const shard = emptyShard(key);
    updateShard(shard, this.plan.get(key) ?? [], () => {});
    this.saveShard(shard);
    writeJsonAtomically(this.path, this.manifest);
    this.report.shardsRepaired++;
    return shard.mini;
  }

  private saveShard(shard: LiveShard): number {
    const { stored, entry } = storedForm(shard, shardFileName(shard.key));
    entry.bytes = writeJsonAtomically(shardPath(this.path, entry.file), stored);
    this.manifest.shards[shard.key] = entry;
    this.loaded.set(shard.key, shard.mini);
    this.report.shardsWritten++;
    return entry.bytes;
  }
}

/** The shard file is there with the size the manifest recorded (a torn write is shorter). */
function shardOnDisk(path: string, entry: ManifestShard): boolean {
  return statSync(shardPath(path, entry.file), { throwIfNoEntry: false })?.size === entry.bytes;
}

function sameFiles(entry: ManifestShard, files: readonly DocFile[]): boolean {
  if (Object.keys(entry.files).length !== files.length) return false;
  return files.every((file) => sameFile(entry.files[file.path], file));
}

function sameFile(stored: [number, number] | undefined, file: DocFile): boolean {
  return stored !== undefined && stored[0] === file.size && stored[1] === file.mtimeMs;
}
