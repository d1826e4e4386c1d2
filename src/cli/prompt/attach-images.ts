import { basename, resolve } from 'node:path';
import type { ImageRef } from '../../contracts/messages.js';
import type { LoadedImage } from '../../images/load-image.js';
import { imagesRefusedBy } from '../../providers/image-capability.js';
import { resolveInWorkspace } from '../../workspace/resolve-path.js';

export interface AttachOptions {
  /** `--image` paths, relative to the current directory. */
  paths: readonly string[];
  workspace: string;
  /** The preset's name and wire protocol, and the model: which limits apply, and whether images may go at all. */
  preset: string;
  protocol: string | undefined;
  model: string;
  extraRoots?: readonly string[];
  allowSecrets?: boolean;
}

export type Attached = { ok: true; images: ImageRef[]; notes: string[] } | { ok: false; reason: string };

/** `@path.png` in a prompt: only image extensions count as a mention, so `@user` and `@file.ts` stay text. */
const MENTION = /(?<=^|\s)@((?:[^\s"'`]|\\ )+\.(?:png|jpe?g|gif|webp))(?=$|[\s,.;:!?)])/gi;

export function imageMentions(prompt: string): string[] {
  return [...new Set([...prompt.matchAll(MENTION)].map((match) => match[1]!.replace(/\\ /g, ' ')))];
}

/**
 * The images a prompt carries: `--image` files, then `@path.png` mentions (resolved in the
 * workspace under the file tools' read rules). Checked before anything is sent: a model known to
 * take text only, a file that is not a whole image, or one that cannot be fitted to the
 * provider's limits ends the run with a reason naming the file.
 */
export async function attachImages(prompt: string, options: AttachOptions): Promise<Attached> {
  const mentions = imageMentions(prompt);
  if (options.paths.length === 0 && mentions.length === 0) return { ok: true, images: [], notes: [] };
  const refused = imagesRefusedBy(options.preset, options.model);
  const count = options.paths.length + mentions.length;
  if (refused) return { ok: false, reason: `cannot attach ${count === 1 ? 'an image' : `${count} images`}: ${refused}. Nothing was sent; pick a model that takes images (--model) or leave the image out.` };
  // The image code (decoding, resizing) loads only for a prompt that carries images.
  const [{ imageLimitsFor, formatMegabytes }, { loadImageFile }] = await Promise.all([import('../../images/image-limits.js'), import('../../images/load-image.js')]);
  const limits = imageLimitsFor(options.protocol ?? 'openai');
  const loads: Array<Promise<LoadedImage>> = options.paths.map((path) => loadImageFile(resolve(path), limits, path));
  const notes: string[] = [];
  for (const mention of mentions) {
    const resolved = await resolveInWorkspace(mention, { workspace: options.workspace, extraRoots: [...(options.extraRoots ?? [])], allowSecrets: options.allowSecrets ?? false, forWrite: false });
    if (!resolved.ok) return { ok: false, reason: `@${mention}: ${resolved.reason}` };
    loads.push(loadImageFile(resolved.absolute, limits, resolved.relative));
  }
  const images: ImageRef[] = [];
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
