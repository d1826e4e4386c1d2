import type { ImageRef } from '../contracts/messages.js';

/** How an image is shown to people: `[image: shot.png 640×480]`. */
export function imageChip(image: Pick<ImageRef, 'name' | 'width' | 'height' | 'mediaType'>): string {
  const name = image.name ? image.name.split(/[\\/]/).pop() : image.mediaType;
  const size = image.width && image.height ? ` ${image.width}×${image.height}` : '';
  return `[image: ${name}${size}]`;
}
