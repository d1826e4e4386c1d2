import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes through a temporary file in the same directory and renames it over the target, so a crash
 * or a full disk never leaves a half-written file. `mode` (the old file's permission bits) is
 * applied explicitly because a new file would otherwise get the umask default.
 */
export async function writeFileAtomic(path: string, data: Uint8Array | string, options: { mode?: number } = {}): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  // The name is shortened so a long file name does not make the temporary one exceed NAME_MAX.
  const temp = join(dir, `.${basename(path).slice(0, 100)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', options.mode ?? 0o666);
  try {
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (options.mode !== undefined) await chmod(temp, options.mode);
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
