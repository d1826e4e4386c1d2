import { createHash } from 'node:crypto';

// The index reader and writer as they were before src/checkpoints/index-file.ts read the index into
// offsets (an object and two buffer views per entry), kept unchanged as the reference the new one is
// held equal to (test/checkpoints-index-reader.test.ts).

/**
 * One entry of a git index file, as stored: its 62 fixed bytes (stat data, object id, flags) and
 * its path. Parsed in place, so a 100,000-entry index costs views of one buffer, not a listing.
 */
export interface IndexEntry {
  /** ctime, mtime, dev, ino, mode, uid, gid, size (40 bytes), the object id (20), the flags (2). */
  fixed: Buffer;
  path: Buffer;
  stage: number;
  /** v3+: intent-to-add or skip-worktree entries, which a plain index cannot say. */
  extended: boolean;
  mode: number;
  size: number;
}

const FIXED = 62;
const SHA1_BYTES = 20;

/**
 * The entries of an index file git knows (version 2–4, SHA-1 object ids), or why it cannot be used
 * here: a split index (its shared part lives elsewhere) or a sparse one (folders as entries).
 */
export function parseIndex(bytes: Buffer): { entries: IndexEntry[]; cacheTree?: Buffer } | { unusable: string } {
  if (bytes.length < 12 + SHA1_BYTES || bytes.toString('latin1', 0, 4) !== 'DIRC') return { unusable: 'not an index file' };
  const version = bytes.readUInt32BE(4);
  if (version < 2 || version > 4) return { unusable: `index version ${version}` };
  const count = bytes.readUInt32BE(8);
  const end = bytes.length - SHA1_BYTES;
  const entries: IndexEntry[] = [];
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    if (at + FIXED > end) return { unusable: 'truncated index' };
    const fixed = bytes.subarray(at, at + FIXED);
    const flags = fixed.readUInt16BE(60);
    const extended = version >= 3 && (flags & 0x4000) !== 0;
    let cursor = at + FIXED + (extended ? 2 : 0);
    let path: Buffer;
    if (version === 4) {
      const strip = readVarint(bytes, cursor);
      cursor = strip.next;
      const nul = bytes.indexOf(0, cursor);
      if (nul === -1 || nul >= end || strip.value > previous.length) return { unusable: 'truncated index' };
      path = Buffer.concat([previous.subarray(0, previous.length - strip.value), bytes.subarray(cursor, nul)]);
      at = nul + 1;
    } else {
      const nul = bytes.indexOf(0, cursor);
      if (nul === -1 || nul >= end) return { unusable: 'truncated index' };
      path = bytes.subarray(cursor, nul);
      at += ((cursor - at) + path.length + 8) & ~7;
    }
    previous = path;
    entries.push({ fixed, path, stage: (flags >> 12) & 3, extended, mode: fixed.readUInt32BE(24), size: fixed.readUInt32BE(36) });
  }
  // Extensions: a 4-byte signature and a 4-byte size each, up to the trailing checksum.
  let cacheTree: Buffer | undefined;
  while (at + 8 <= end) {
    const signature = bytes.toString('latin1', at, at + 4);
    if (signature === 'link') return { unusable: 'a split index' };
    if (signature === 'sdir') return { unusable: 'a sparse index' };
    const size = bytes.readUInt32BE(at + 4);
    if (signature === 'TREE' && at + 8 + size <= end) cacheTree = bytes.subarray(at + 8, at + 8 + size);
    at += 8 + size;
  }
  return cacheTree ? { entries, cacheTree } : { entries };
}

/**
 * An index file (version 4: paths prefix-compressed) holding `entries` with their stat data, so git
 * sees each file as the user's git last saw it and reads only those whose stat data differ. Paths
 * must be sorted as git sorts them (bytewise) and unique; every entry is written as a plain stage-0
 * one, trusted no more than its stat data (no assume-valid).
 */
export function writeIndex(entries: ReadonlyArray<{ fixed: Buffer; path: Buffer }>, cacheTree?: Buffer): Buffer {
  // One buffer of the largest size it can take (a varint of a path's length is at most 3 bytes), not a chunk per entry.
  let most = 12 + SHA1_BYTES + (cacheTree ? 8 + cacheTree.length : 0);
  for (const entry of entries) most += FIXED + 3 + entry.path.length + 1;
  const out = Buffer.alloc(most);
  out.write('DIRC', 0, 'latin1');
  out.writeUInt32BE(4, 4);
  out.writeUInt32BE(entries.length, 8);
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (const entry of entries) {
    entry.fixed.copy(out, at);
    out.writeUInt16BE(Math.min(entry.path.length, 0xfff), at + 60);
    at += FIXED;
    let common = 0;
    while (common < previous.length && common < entry.path.length && previous[common] === entry.path[common]) common++;
    at = writeVarint(out, at, previous.length - common);
    at += entry.path.copy(out, at, common);
    out[at++] = 0;
    previous = entry.path;
  }
  if (cacheTree) {
    at += out.write('TREE', at, 'latin1');
    out.writeUInt32BE(cacheTree.length, at);
    at += 4 + cacheTree.copy(out, at + 4);
  }
  createHash('sha1').update(out.subarray(0, at)).digest().copy(out, at);
  return out.subarray(0, at + SHA1_BYTES);
}

/** git's offset varint (varint.c): each continuation adds one before shifting. */
function readVarint(bytes: Buffer, at: number): { value: number; next: number } {
  let byte = bytes[at++] ?? 0;
  let value = byte & 127;
  while (byte & 128) {
    byte = bytes[at++] ?? 0;
    value = ((value + 1) * 128) + (byte & 127);
  }
  return { value, next: at };
}

function writeVarint(out: Buffer, at: number, value: number): number {
  const bytes = [value & 127];
  while ((value = Math.floor(value / 128)) > 0) bytes.unshift(128 | (--value & 127));
  for (const byte of bytes) out[at++] = byte;
  return at;
}
