import type { ImageMediaType } from '../contracts/messages.js';
import { DECODE_LIMITS } from './image-limits.js';

export interface ImageFacts {
  mediaType: ImageMediaType;
  width: number;
  height: number;
}

/** Each format as its first bytes say (the file name is never trusted). */
export function imageTypeOf(bytes: Uint8Array): ImageMediaType | undefined {
  const starts = (...sig: number[]) => sig.every((byte, i) => bytes[i] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return 'image/gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && ascii(bytes, 8, 4) === 'WEBP') return 'image/webp';
  return undefined;
}

/**
 * The format and size of an image, read from its headers, and a check that the file is whole
 * (a truncated download ends before the format's end marker). Returns a reason when it is not an
 * image we can send: not one of PNG/JPEG/GIF/WebP, damaged, or declaring more pixels than
 * DECODE_LIMITS (every image entry point comes here before a decoder is loaded).
 */
export function inspectImage(bytes: Uint8Array): { ok: true; facts: ImageFacts } | { ok: false; reason: string } {
  const mediaType = imageTypeOf(bytes);
  if (!mediaType) return { ok: false, reason: 'is not a PNG, JPEG, GIF or WebP image (judged by its first bytes)' };
  const size = sizeOf(mediaType, bytes);
  if (!size || size.width <= 0 || size.height <= 0) return { ok: false, reason: `is a damaged ${label(mediaType)} (its header gives no image size)` };
  const oversize = overDecodeLimits(size) ?? (mediaType === 'image/gif' ? overDecodeLimits(gifFrameSize(bytes)) : undefined);
  if (oversize) return { ok: false, reason: `declares ${oversize}, more than is ever decoded here (${DECODE_LIMITS.maxPixels / 1e6} megapixels, ${DECODE_LIMITS.maxEdge} px on an edge); scale it down first` };
  if (!whole(mediaType, bytes)) return { ok: false, reason: `is a truncated or damaged ${label(mediaType)} (it ends before the image does)` };
  return { ok: true, facts: { mediaType, ...size } };
}

export function label(mediaType: ImageMediaType): string {
  return { 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/gif': 'GIF', 'image/webp': 'WebP' }[mediaType];
}

export function extensionOf(mediaType: ImageMediaType): string {
  return { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' }[mediaType];
}

function sizeOf(mediaType: ImageMediaType, b: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  try {
    switch (mediaType) {
      case 'image/png':
        return ascii(b, 12, 4) === 'IHDR' ? { width: view.getUint32(16), height: view.getUint32(20) } : undefined;
      case 'image/gif':
        return { width: view.getUint16(6, true), height: view.getUint16(8, true) };
      case 'image/webp':
        return webpSize(b, view);
      case 'image/jpeg':
        return jpegSize(b, view);
    }
  } catch {
    return undefined;
  }
}

function overDecodeLimits(size: { width: number; height: number } | undefined): string | undefined {
  if (!size) return undefined;
  const { width, height } = size;
  if (width <= DECODE_LIMITS.maxEdge && height <= DECODE_LIMITS.maxEdge && width * height <= DECODE_LIMITS.maxPixels) return undefined;
  return `${width}×${height} px (${Math.round((width * height) / 1e6)} megapixels)`;
}

/**
 * The size of a GIF's first frame, which the decoder allocates for whatever the logical screen
 * says: header, logical screen, colour table, then extensions up to the first image descriptor.
 */
function gifFrameSize(b: Uint8Array): { width: number; height: number } | undefined {
  let offset = 13 + (b[10]! & 0x80 ? 3 * 2 ** ((b[10]! & 0x07) + 1) : 0);
  while (offset < b.length) {
    const block = b[offset];
    if (block === 0x2c) {
      if (offset + 9 > b.length) return undefined;
      return { width: b[offset + 5]! | (b[offset + 6]! << 8), height: b[offset + 7]! | (b[offset + 8]! << 8) };
    }
    if (block !== 0x21) return undefined;
    offset += 2;
    while (offset < b.length && b[offset] !== 0) offset += 1 + b[offset]!;
    offset++;
  }
  return undefined;
}

function webpSize(b: Uint8Array, view: DataView): { width: number; height: number } | undefined {
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8X') {
    if (b.length < 30) return undefined;
    return { width: 1 + (b[24]! | (b[25]! << 8) | (b[26]! << 16)), height: 1 + (b[27]! | (b[28]! << 8) | (b[29]! << 16)) };
  }
  if (chunk === 'VP8L') {
    const bits = view.getUint32(21, true);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  if (chunk === 'VP8 ') return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  return undefined;
}

/** Walks the JPEG markers to the first start-of-frame, which holds the size. */
function jpegSize(b: Uint8Array, view: DataView): { width: number; height: number } | undefined {
  let offset = 2;
  while (offset + 9 < b.length) {
    if (b[offset] !== 0xff) return undefined;
    const marker = b[offset + 1]!;
    if (marker === 0xff) {
      offset++;
      continue;
    }
    const length = view.getUint16(offset + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { height: view.getUint16(offset + 5), width: view.getUint16(offset + 7) };
    offset += 2 + length;
  }
  return undefined;
}

function whole(mediaType: ImageMediaType, b: Uint8Array): boolean {
  switch (mediaType) {
    case 'image/png':
      // The last chunk is IEND (length 0, type, CRC): 12 bytes.
      return b.length >= 57 && ascii(b, b.length - 8, 4) === 'IEND';
    case 'image/jpeg': {
      // End-of-image marker; some writers pad after it, so look near the end.
      for (let i = b.length - 2; i >= Math.max(2, b.length - 64); i--) if (b[i] === 0xff && b[i + 1] === 0xd9) return true;
      return false;
    }
    case 'image/gif':
      return b[b.length - 1] === 0x3b;
    case 'image/webp':
      return b.length >= 8 + new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(4, true);
  }
}

function ascii(b: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...b.subarray(start, start + length));
}
