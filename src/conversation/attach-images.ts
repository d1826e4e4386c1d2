import { basename, resolve } from 'node:path';
import type { ImageRef } from '../contracts/messages.js';
import type { LoadedImage } from '../images/load-image.js';
import { imagesRefusedBy } from '../providers/image-capability.js';

export interface AttachOptions {
  /** `--image` paths (and pasted ones), relative to the current directory. */
  paths: readonly string[];
  /** The preset's name and wire protocol, and the model: which limits apply, and whether images may go at all. */
  preset: string;
  protocol: string | undefined;
  model: string;
}

export type Attached = { ok: true; images: ImageRef[]; notes: string[] } | { ok: false; reason: string };

/**
 * The images given with `--image` (or pasted). `@path` mentions of pictures are read by read_file
 * with the other mentions (src/mentions). Checked before anything is sent: a model known to take
 * text only, a file that is not a whole image, or one that cannot be fitted to the provider's
 * limits ends the run with a reason naming the file.
 */
export async function attachImages(options: AttachOptions): Promise<Attached> {
  if (options.paths.length === 0) return { ok: true, images: [], notes: [] };
  const refused = imagesRefusedBy(options.preset, options.model);
  const count = options.paths.length;
  if (refused) return { ok: false, reason: `cannot attach ${count === 1 ? 'an image' : `${count} images`}: ${refused}. Nothing was sent; pick a model that takes images or leave the image out.` };
  // The image code (decoding, resizing) loads only for a prompt that carries images.
  const [{ imageLimitsFor, formatMegabytes }, { loadImageFile }] = await Promise.all([import('../images/image-limits.js'), import('../images/load-image.js')]);
  const limits = imageLimitsFor(options.protocol ?? 'openai');
  const loads: Array<Promise<LoadedImage>> = options.paths.map((path) => loadImageFile(resolve(path), limits, path));
  const images: ImageRef[] = [];
  const notes: string[] = [];
  for (const loaded of await Promise.all(loads)) {
    if (!loaded.ok) return { ok: false, reason: `${loaded.reason}. Nothing was sent.` };
    images.push(loaded.image);
    if (loaded.resized) {
      const { from, bytes } = loaded.resized;
      notes.push(`${basename(loaded.image.name ?? '')} was ${from.width}×${from.height} (${formatMegabytes(bytes)}), over ${limits.provider}'s limits; sent as ${loaded.image.width}×${loaded.image.height} ${loaded.image.mediaType}.`);
    }
  }
  return { ok: true, images, notes };
}
