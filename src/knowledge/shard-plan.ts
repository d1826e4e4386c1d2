import { createHash } from 'node:crypto';
import type { DocFile } from './list-doc-files.js';

/** A folder with more files than this is split into hash buckets, so no shard costs much to reload. */
export const MAX_SHARD_FILES = 64;

/**
 * Groups files into shards: one per top-level folder of each source, a large folder split into a
 * power of two of buckets by a hash of the path. A file keeps its shard while its folder's size
 * stays within the same power of two, so an edit touches one shard and not its neighbours.
 */
export function planShards(files: readonly DocFile[]): Map<string, DocFile[]> {
  const byFolder = new Map<string, DocFile[]>();
  for (const file of files) {
    const list = byFolder.get(file.folder);
    if (list) list.push(file);
    else byFolder.set(file.folder, [file]);
  }
  const shards = new Map<string, DocFile[]>();
  for (const [folder, list] of byFolder) {
    const buckets = bucketCount(list.length);
    if (buckets === 1) {
      shards.set(folder, list);
      continue;
    }
    for (const file of list) {
      const key = `${folder}#${bucketOf(file.path, buckets)}/${buckets}`;
      const shard = shards.get(key);
      if (shard) shard.push(file);
      else shards.set(key, [file]);
    }
  }
  return shards;
}

function bucketCount(files: number): number {
  let buckets = 1;
  while (files / buckets > MAX_SHARD_FILES) buckets *= 2;
  return buckets;
}

function bucketOf(path: string, buckets: number): number {
  return createHash('sha1').update(path).digest().readUInt32BE(0) % buckets;
}

/** The shard's file name: its key hashed (keys hold folder names, which may be anything). */
export function shardFileName(key: string): string {
  return `${createHash('sha256').update(key).digest('hex').slice(0, 20)}.json`;
}
