import { open } from 'node:fs/promises';
import type { ToolOutput } from '../../../contracts/tool.js';
import { imageTypeOf, label } from '../../../images/detect-image.js';
import { STRICTEST_IMAGE_LIMITS } from '../../../images/image-limits.js';
import { loadImageFile } from '../../../images/load-image.js';
import { formatBytes } from '../shared/text-file.js';

/**
 * read_file on a picture: undefined when the file is not an image (by its first bytes). Images
 * are fitted to the limits every provider accepts, since the tool does not know where the
 * result goes; a model known to take text only is told it cannot be shown.
 */
export async function readImage(absolute: string, shown: string, acceptsImages: boolean): Promise<ToolOutput | undefined> {
  const head = Buffer.alloc(16);
  let size = 0;
  try {
    const handle = await open(absolute, 'r');
    try {
      await handle.read(head, 0, head.length, 0);
      size = (await handle.stat()).size;
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
  const type = imageTypeOf(head);
  if (!type) return undefined;
  if (!acceptsImages) {
    return { output: `${shown} is a ${label(type)} image (${formatBytes(size)}). The current model does not accept images, so it cannot be shown; describe what you need from it to the user instead.`, isError: true };
  }
  const loaded = await loadImageFile(absolute, STRICTEST_IMAGE_LIMITS, shown);
  if (!loaded.ok) return { output: loaded.reason, isError: true };
  const { image, resized } = loaded;
  const note = resized ? `, scaled from ${resized.from.width}×${resized.from.height} to fit the providers' limits` : '';
  return { output: `[${shown}: ${label(image.mediaType)} image, ${image.width}×${image.height}, ${formatBytes(size)}${note}; attached as an image.]`, images: [image] };
}
