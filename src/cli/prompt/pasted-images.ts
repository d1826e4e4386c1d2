import { readFileSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { inspectImage } from '../../images/detect-image.js';
import { imageChip } from '../../images/image-chip.js';

const IMAGE_PATH = /\.(png|jpe?g|gif|webp)$/i;
/** Terminals paste a dropped file as its path, sometimes quoted, sometimes with `\ ` for spaces, sometimes as a file:// URL. */
export function pastedPath(text: string): string | undefined {
  let path = text.trim();
  if (!path || path.includes('\n')) return undefined;
  if (/^(['"]).*\1$/.test(path)) path = path.slice(1, -1);
  if (path.startsWith('file://')) path = decodeURIComponent(path.slice('file://'.length));
  path = path.replace(/\\ /g, ' ');
  return IMAGE_PATH.test(path) ? path : undefined;
}

/**
 * The interactive prompt's pasted images: a paste that names an image file becomes a chip
 * (`[image: shot.png 640×480]`) and is remembered; `pathsIn` gives the files whose chips are
 * still in a prompt when it is sent (a chip the user deleted attaches nothing).
 */
export class PastedImages {
  private readonly byChip = new Map<string, string>();

  constructor(private readonly cwd: string) {}

  paste(text: string): string | undefined {
    const path = pastedPath(text);
    if (!path) return undefined;
    const absolute = resolve(this.cwd, path);
    try {
      if (!statSync(absolute).isFile()) return undefined;
      const inspected = inspectImage(readFileSync(absolute));
      if (!inspected.ok) return undefined;
      const chip = imageChip({ name: basename(absolute), ...inspected.facts });
      this.byChip.set(chip, absolute);
      return chip;
    } catch {
      return undefined;
    }
  }

  pathsIn(prompt: string): string[] {
    return [...this.byChip].filter(([chip]) => prompt.includes(chip)).map(([, path]) => path);
  }
}
