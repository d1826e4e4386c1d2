import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { ImageRef } from '../contracts/messages.js';
import { inspectImage, type ImageFacts } from './detect-image.js';
import { fitImage, withinLimits } from './fit-image.js';
import type { ImageLimits } from './image-limits.js';

export type LoadedImage = { ok: true; image: ImageRef; resized?: { from: ImageFacts; bytes: number } } | { ok: false; reason: string };

/** Reads an image file; see imageFromBytes. `name` is how messages refer to it (default: the path). */
export async function loadImageFile(path: string, limits: ImageLimits, name = path): Promise<LoadedImage> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, reason: `${name}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (error as Error).message}` };
  }
  return imageFromBytes(bytes, limits, name);
}

/**
 * Checks an image (format by magic bytes, whole, sized) and fits it to `limits`, resizing when
 * it is over them. Every failure names the image and says why, so nothing half-checked is sent.
 */
export async function imageFromBytes(bytes: Buffer, limits: ImageLimits, name: string): Promise<LoadedImage> {
  const inspected = inspectImage(bytes);
  if (!inspected.ok) return { ok: false, reason: `${name} ${inspected.reason}` };
  const { facts } = inspected;
  if (withinLimits(bytes.length, facts, limits)) return { ok: true, image: imageRef(bytes, facts, name) };
  const fitted = await fitImage(bytes, facts, limits);
  if (!fitted.ok) return { ok: false, reason: `${name} ${fitted.reason}` };
  return { ok: true, image: imageRef(fitted.bytes, fitted.facts, name), resized: { from: facts, bytes: bytes.length } };
}

export function imageRef(bytes: Buffer, facts: ImageFacts, name: string): ImageRef {
  return {
    mediaType: facts.mediaType,
    data: bytes.toString('base64'),
    sha256: createHash('sha256').update(bytes).digest('hex'),
    name,
    width: facts.width,
    height: facts.height,
  };
}
