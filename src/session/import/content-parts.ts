import { createHash } from 'node:crypto';
import type { ImageMediaType, ImageRef } from '../../contracts/messages.js';
import type { ImportStats } from './import-model.js';

const MEDIA: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** An inline base64 image as an ImageRef (named by its bytes' hash); an unsupported type is counted and left out. */
export function imageRef(mediaType: unknown, data: unknown, stats: ImportStats): ImageRef | undefined {
  if (typeof data !== 'string' || data === '') return undefined;
  if (typeof mediaType !== 'string' || !MEDIA.has(mediaType)) {
    stats.skip(`image of type ${String(mediaType)} (not one the providers take)`);
    return undefined;
  }
  stats.images++;
  return { mediaType: mediaType as ImageMediaType, data, sha256: createHash('sha256').update(Buffer.from(data, 'base64')).digest('hex') };
}

/** Text and images of a tool result or message given as a string or a list of blocks (Anthropic / pi shapes). */
export function textAndImages(content: unknown, stats: ImportStats): { text: string; images: ImageRef[] } {
  if (typeof content === 'string') return { text: content, images: [] };
  const texts: string[] = [];
  const images: ImageRef[] = [];
  for (const block of Array.isArray(content) ? content : []) {
    if (!block || typeof block !== 'object') continue;
    const b = block as Record<string, unknown>;
    if (typeof b.text === 'string' && (b.type === 'text' || b.type === 'input_text' || b.type === 'output_text' || b.type === undefined)) texts.push(b.text);
    else if (b.type === 'image') {
      const source = (b.source ?? {}) as Record<string, unknown>;
      const image = source.type === 'base64' ? imageRef(source.media_type, source.data, stats) : imageRef(b.mimeType, b.data, stats);
      if (image) images.push(image);
      else if (source.type === 'url') texts.push(`[image: ${String(source.url)}]`);
    } else if (b.type === 'input_image' && typeof b.image_url === 'string') {
      const match = /^data:([^;]+);base64,(.*)$/s.exec(b.image_url);
      const image = match ? imageRef(match[1], match[2], stats) : undefined;
      if (image) images.push(image);
      else texts.push(`[image: ${b.image_url.slice(0, 200)}]`);
    } else if (typeof b.type === 'string') stats.skip(`content block "${b.type}"`);
  }
  return { text: texts.join('\n'), images };
}
