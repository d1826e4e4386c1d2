import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { ImageRef } from '../contracts/messages.js';
import { imageFromBytes } from '../images/load-image.js';
import type { ImageLimits } from '../images/image-limits.js';

export type PromptImages = { ok: true; images: ImageRef[] } | { ok: false; reason: string };

/**
 * The `image` blocks of a prompt as images on the user message: decoded, checked to be whole
 * images and fitted to the provider's limits like `--image` files. `refused` (the model takes
 * text only) refuses the whole prompt rather than dropping the images.
 */
export async function promptImages(blocks: readonly ContentBlock[], refused: string | undefined, limits: ImageLimits): Promise<PromptImages> {
  const imageBlocks = blocks.filter((block): block is Extract<ContentBlock, { type: 'image' }> => block.type === 'image');
  if (imageBlocks.length === 0) return { ok: true, images: [] };
  const count = imageBlocks.length;
  if (refused) return { ok: false, reason: `cannot attach ${count === 1 ? 'the image' : `${count} images`}: ${refused}. Nothing was sent; pick a model that takes images or leave the image out.` };
  const images: ImageRef[] = [];
  for (const [index, block] of imageBlocks.entries()) {
    const name = block.uri ? (block.uri.split('/').at(-1) ?? block.uri) : `image ${index + 1}`;
    const bytes = Buffer.from(block.data, 'base64');
    const loaded = await imageFromBytes(bytes, limits, name);
    if (!loaded.ok) return { ok: false, reason: `${loaded.reason}. Nothing was sent.` };
    images.push(loaded.image);
  }
  return { ok: true, images };
}
