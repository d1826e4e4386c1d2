import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ImageMediaType, ImageRef, StoredImageRef } from '../contracts/messages.js';

const EXTENSIONS: Record<ImageMediaType, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };
const HASH = /^[0-9a-f]{64}$/;

/** `<session>.images/` beside `<session>.jsonl`: each image once, named by its content hash. */
export function imagesDirFor(sessionPath: string): string {
  return `${sessionPath.replace(/\.jsonl$/, '')}.images`;
}

function imageFile(dir: string, image: StoredImageRef): string | undefined {
  const extension = EXTENSIONS[image.mediaType];
  return extension && HASH.test(image.sha256) ? join(dir, `${image.sha256}.${extension}`) : undefined;
}

/**
 * For redactedJson: an `images` array's bytes moved out to files (0600, in a 0700 folder; an image
 * already there is not written again), only `StoredImageRef`s left in the line.
 */
export function storeImageFiles(dir: string): (images: unknown[]) => StoredImageRef[] {
  return (images) =>
    images.map((image) => {
      const { data, ...stored } = image as ImageRef;
      const file = imageFile(dir, stored);
      if (file && typeof data === 'string' && data !== '' && !existsSync(file)) {
        mkdirSync(dir, { recursive: true, mode: 0o700 });
        writeFileSync(file, Buffer.from(data, 'base64'), { mode: 0o600 });
      }
      return stored;
    });
}

/** For redactedJson: images without their bytes (the hash names the content), as requests are recorded and compared and events printed. */
export function dropImageBytes(images: unknown[]): StoredImageRef[] {
  return images.map((image) => {
    const { data: _bytes, ...stored } = image as ImageRef;
    return stored;
  });
}

/**
 * Puts the bytes back into a stored record's images. An image whose file is gone is left out
 * with a warning naming it: the conversation resumes without it rather than failing.
 */
export function loadImages<T>(record: T, dir: string, warnings: string[]): T {
  if (!JSON.stringify(record).includes('"images"')) return record;
  return walk(record, (images) =>
    images.flatMap((image) => {
      const stored = image as StoredImageRef;
      const file = imageFile(dir, stored);
      try {
        if (!file) throw new Error('bad reference');
        return [{ ...stored, data: readFileSync(file).toString('base64') }];
      } catch {
        warnings.push(`the image ${stored.name ?? stored.sha256} (${file ?? 'no file name'}) is missing from the session's image folder; resuming without it.`);
        return [];
      }
    }),
  ) as T;
}

function walk(value: unknown, mapImages: (images: unknown[]) => unknown[]): unknown {
  if (Array.isArray(value)) return value.map((item) => walk(item, mapImages));
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = key === 'images' && Array.isArray(item) ? mapImages(item) : walk(item, mapImages);
  }
  return out;
}
