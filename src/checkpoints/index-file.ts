import { createHash } from 'node:crypto';

const FIXED = 62;
const SHA1_BYTES = 20;

/**
 * A git index file read in place: where each entry's 62 fixed bytes (ctime, mtime, dev, ino, mode,
 * uid, gid, size, the object id, the flags) and its path lie, in typed arrays over the file's one
 * buffer. 100,000 entries cost three arrays of 400 KB, not an object and two buffer views each; a
 * path is decoded only when asked for.
 */
export class IndexFile {
  constructor(
    readonly version: number,
    /** The file's bytes: entry `i`'s fixed bytes start at `fixedAt[i]`. */
    readonly bytes: Buffer,
    readonly fixedAt: Uint32Array,
    /** Where the paths lie: the file itself, or (version 4, its paths prefix-compressed) one buffer of them whole. */
    readonly names: Buffer,
    readonly nameAt: Uint32Array,
    readonly nameEnd: Uint32Array,
    /** The TREE extension's content (cache-tree.ts), when there is one. */
    readonly cacheTree?: Buffer,
  ) {}

  get count(): number {
    return this.fixedAt.length;
  }

  /** Entry `i`'s path as a view (no copy). */
  path(i: number): Buffer {
    return this.names.subarray(this.nameAt[i]!, this.nameEnd[i]!);
  }

  /** Entry `i`'s path from byte `from` on, as UTF-8 text. */
  pathText(i: number, from = 0): string {
    return this.names.toString('utf8', this.nameAt[i]! + from, this.nameEnd[i]!);
  }

  pathStartsWith(i: number, prefix: Buffer): boolean {
    const at = this.nameAt[i]!;
    return this.nameEnd[i]! - at >= prefix.length && this.names.compare(prefix, 0, prefix.length, at, at + prefix.length) === 0;
  }

  /** 0 for a plain entry, 1–3 for the sides of a merge conflict. */
  stage(i: number): number {
    return (this.flags(i) >> 12) & 3;
  }

  /** v3+: intent-to-add or skip-worktree entries, which a plain index cannot say. */
  extended(i: number): boolean {
    return this.version >= 3 && (this.flags(i) & 0x4000) !== 0;
  }

  mode(i: number): number {
    return this.bytes.readUInt32BE(this.fixedAt[i]! + 24);
  }

  /** The file's size when git last saw it (truncated to 32 bits). */
  size(i: number): number {
    return this.bytes.readUInt32BE(this.fixedAt[i]! + 36);
  }

  private flags(i: number): number {
    return this.bytes.readUInt16BE(this.fixedAt[i]! + 60);
  }
}

/**
 * An index file git knows (version 2–4, SHA-1 object ids), or why it cannot be used here: a split
 * index (its shared part lives elsewhere) or a sparse one (folders as entries).
 */
export function readIndex(bytes: Buffer): IndexFile | { unusable: string } {
  if (bytes.length < 12 + SHA1_BYTES || bytes.toString('latin1', 0, 4) !== 'DIRC') return { unusable: 'not an index file' };
  const version = bytes.readUInt32BE(4);
  if (version < 2 || version > 4) return { unusable: `index version ${version}` };
  const count = bytes.readUInt32BE(8);
  const end = bytes.length - SHA1_BYTES;
  // Every entry takes at least its fixed bytes and a NUL: a count beyond that is a damaged file, not an allocation to make.
  if (count > (end - 12) / (FIXED + 1)) return { unusable: 'truncated index' };
  const fixedAt = new Uint32Array(count);
  const nameAt = new Uint32Array(count);
  const nameEnd = new Uint32Array(count);
  // Version 4 names each path by what it keeps of the one before: the paths are spelt out whole in a buffer of their own.
  let names = version === 4 ? Buffer.allocUnsafe(Math.max(4096, bytes.length)) : bytes;
  let namesLength = 0;
  let at = 12;
  for (let i = 0; i < count; i++) {
    if (at + FIXED > end) return { unusable: 'truncated index' };
    fixedAt[i] = at;
    const extended = version >= 3 && (bytes.readUInt16BE(at + 60) & 0x4000) !== 0;
    let cursor = at + FIXED + (extended ? 2 : 0);
    if (version === 4) {
      const strip = readVarint(bytes, cursor);
      cursor = strip.next;
      const nul = bytes.indexOf(0, cursor);
      const previousLength = i ? nameEnd[i - 1]! - nameAt[i - 1]! : 0;
      if (nul === -1 || nul >= end || strip.value > previousLength) return { unusable: 'truncated index' };
      const kept = previousLength - strip.value;
      const length = kept + nul - cursor;
      if (namesLength + length > names.length) {
        const grown = Buffer.allocUnsafe(Math.max(names.length * 2, namesLength + length));
        names.copy(grown, 0, 0, namesLength);
        names = grown;
      }
      if (kept) names.copy(names, namesLength, nameAt[i - 1]!, nameAt[i - 1]! + kept);
      bytes.copy(names, namesLength + kept, cursor, nul);
      nameAt[i] = namesLength;
      nameEnd[i] = namesLength + length;
      namesLength += length;
      at = nul + 1;
    } else {
      const nul = bytes.indexOf(0, cursor);
      if (nul === -1 || nul >= end) return { unusable: 'truncated index' };
      nameAt[i] = cursor;
      nameEnd[i] = nul;
      at += ((cursor - at) + (nul - cursor) + 8) & ~7;
    }
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
  return new IndexFile(version, bytes, fixedAt, version === 4 ? names.subarray(0, namesLength) : bytes, nameAt, nameEnd, cacheTree);
}

/**
 * An index file (version 4: paths prefix-compressed) holding the entries `chosen` of `source`, in
 * that order, each path less its first `strip` bytes (a subfolder's prefix), with their stat data,
 * so git sees each file as the user's git last saw it and reads only those whose stat data differ.
 * The paths left must be sorted as git sorts them (bytewise) and unique; every entry is written as a
 * plain stage-0 one, trusted no more than its stat data (no assume-valid). Each entry is two ranges
 * of the source copied, into one buffer.
 */
export function writeIndex(source: IndexFile, chosen: ArrayLike<number>, strip = 0, cacheTree?: Buffer): Buffer {
  const { bytes, names, fixedAt, nameAt, nameEnd } = source;
  // One buffer of the largest size it can take (a varint of a path's length is at most 3 bytes), not a chunk per entry.
  let most = 12 + SHA1_BYTES + (cacheTree ? 8 + cacheTree.length : 0);
  for (let n = 0; n < chosen.length; n++) {
    const i = chosen[n]!;
    most += FIXED + 3 + nameEnd[i]! - nameAt[i]! - strip + 1;
  }
  const out = Buffer.alloc(most);
  out.write('DIRC', 0, 'latin1');
  out.writeUInt32BE(4, 4);
  out.writeUInt32BE(chosen.length, 8);
  let at = 12;
  let previousAt = 0;
  let previousLength = 0;
  for (let n = 0; n < chosen.length; n++) {
    const i = chosen[n]!;
    const pathAt = nameAt[i]! + strip;
    const length = nameEnd[i]! - pathAt;
    bytes.copy(out, at, fixedAt[i]!, fixedAt[i]! + FIXED);
    out.writeUInt16BE(Math.min(length, 0xfff), at + 60);
    at += FIXED;
    let common = 0;
    while (common < previousLength && common < length && names[previousAt + common] === names[pathAt + common]) common++;
    at = writeVarint(out, at, previousLength - common);
    at += names.copy(out, at, pathAt + common, pathAt + length);
    out[at++] = 0;
    previousAt = pathAt;
    previousLength = length;
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

const varintScratch = new Uint8Array(8);

function writeVarint(out: Buffer, at: number, value: number): number {
  let first = varintScratch.length - 1;
  varintScratch[first] = value & 127;
  while ((value = Math.floor(value / 128)) > 0) varintScratch[--first] = 128 | (--value & 127);
  for (let k = first; k < varintScratch.length; k++) out[at++] = varintScratch[k]!;
  return at;
}
