import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The installed package's root, found from this module upward: the CLI ships as a bundle whose
 * chunks live one folder deeper than tsc's output, so a fixed relative path would point elsewhere.
 */
export function packageRoot(from: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'vibe-agent') return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`vibe-agent's package.json was not found above ${fileURLToPath(from)}`);
    dir = parent;
  }
}
