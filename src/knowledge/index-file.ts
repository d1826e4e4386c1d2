import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AsPlainObject } from 'minisearch';

/** Bumped whenever the stored shape or the chunking changes: an older index is rebuilt, not read. */
export const INDEX_FORMAT = 2;

/** One file as the manifest knows it: enough to tell it changed with a stat, no index loading. */
export type ManifestFile = [size: number, mtimeMs: number];

export interface ManifestShard {
  /** The shard's file name in the shards folder. */
  file: string;
  /** Written into the shard too: a shard file whose stamp differs is not the one this manifest describes. */
  stamp: string;
  /** The shard file's size: a torn (truncated) shard shows up with a stat. */
  bytes: number;
  chunks: number;
  files: Record<string, ManifestFile>;
}

/** The index file itself: which shards exist and the files in each. Written after the shards. */
export interface Manifest {
  format: number;
  shards: Record<string, ManifestShard>;
}

export interface StoredFile {
  size: number;
  mtimeMs: number;
  /** Ids of its chunks in the shard's MiniSearch index. */
  ids: string[];
}

/** One shard: its own MiniSearch index and the chunk ids of each file, for incremental updates. */
export interface StoredShard {
  format: number;
  key: string;
  stamp: string;
  files: Record<string, StoredFile>;
  nextId: number;
  /** MiniSearch's own plain object (`miniSearch.toJSON()`), loaded with its loadJS. */
  index: AsPlainObject;
}

export type LoadedManifest = { ok: true; manifest: Manifest } | { ok: false; reason: 'missing' | 'torn' | 'old-format' };

/** The folder beside the manifest holding its shards. */
export function shardsDir(manifestPath: string): string {
  return `${manifestPath.replace(/\.json$/, '')}.shards`;
}

export function shardPath(manifestPath: string, file: string): string {
  return join(shardsDir(manifestPath), file);
}

/** The stored manifest, or why there is none to use (missing, torn by a crash, another format). */
export function readManifest(path: string): LoadedManifest {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { ok: false, reason: 'missing' };
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text) as Manifest;
  } catch {
    return { ok: false, reason: 'torn' };
  }
  if (manifest?.format !== INDEX_FORMAT) return { ok: false, reason: 'old-format' };
  if (typeof manifest.shards !== 'object' || manifest.shards === null) return { ok: false, reason: 'torn' };
  return { ok: true, manifest };
}

/** The shard file if it is whole and the one the manifest describes (same stamp), else undefined. */
export function readShard(path: string, key: string, stamp: string): StoredShard | undefined {
  let shard: StoredShard;
  try {
    shard = JSON.parse(readFileSync(path, 'utf8')) as StoredShard;
  } catch {
    return undefined;
  }
  const whole = shard?.format === INDEX_FORMAT && shard.key === key && shard.stamp === stamp && typeof shard.files === 'object' && typeof shard.index === 'object' && typeof shard.nextId === 'number';
  return whole ? shard : undefined;
}

export function newStamp(): string {
  return randomBytes(6).toString('hex');
}

/**
 * Written to a file of its own, then renamed over the old one: a reader sees the old file or the
 * new one, never half of one, and when two processes write at once the last rename wins whole.
 * Returns the bytes written.
 */
export function writeJsonAtomically(path: string, value: unknown): number {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  const text = JSON.stringify(value);
  try {
    writeFileSync(temp, text);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  return Buffer.byteLength(text);
}
