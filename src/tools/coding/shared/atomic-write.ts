import { randomBytes } from 'node:crypto';
import { constants, existsSync } from 'node:fs';
import { lstat, mkdir, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_DIRECTORY, O_NOFOLLOW } = constants;
/** Linux names an open directory as a path, which makes every later step relative to it, like openat(2). */
const FD_DIR = '/proc/self/fd';
const HAS_FD_DIR = process.platform === 'linux' && existsSync(FD_DIR);

/**
 * Writes through a temporary file in the same directory and renames it over the target, so a crash
 * or a full disk never leaves a half-written file. `mode` (the old file's permission bits) is
 * applied explicitly because a new file would otherwise get the umask default.
 *
 * `path` is a real path (checked to lie in the workspace). The write sees the same folders as the
 * check: each folder is opened in turn without following symbolic links, so one swapped in after
 * the check (a folder replaced by a link to elsewhere) makes the write fail instead of land there.
 */
export async function writeFileAtomic(path: string, data: Uint8Array | string, options: { mode?: number } = {}): Promise<void> {
  // The name is shortened so a long file name does not make the temporary one exceed NAME_MAX.
  const tempName = `.${basename(path).slice(0, 100)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  if (!HAS_FD_DIR) return writeThroughPaths(path, tempName, data, options.mode);
  const dir = await openFoldersNoFollow(dirname(path));
  try {
    const here = `${FD_DIR}/${dir.fd}`;
    await writeAndRename(`${here}/${tempName}`, `${here}/${basename(path)}`, data, options.mode);
  } finally {
    await dir.close();
  }
}

async function writeAndRename(temp: string, target: string, data: Uint8Array | string, mode: number | undefined): Promise<void> {
  const handle = await open(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode ?? 0o666);
  try {
    try {
      await handle.writeFile(data);
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // rename replaces a link at the target itself, never what it points at.
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** Opens `/`, then each folder of `dir` inside the one before, creating missing ones; a link anywhere fails. */
async function openFoldersNoFollow(dir: string): Promise<FileHandle> {
  let current = await open(sep, O_RDONLY | O_DIRECTORY);
  try {
    for (const name of dir.split(sep).filter((part) => part !== '')) {
      const next = `${FD_DIR}/${current.fd}/${name}`;
      const opened = await openFolder(next).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw changedDuringWrite(dir, error);
        await mkdir(next).catch((made: NodeJS.ErrnoException) => {
          if (made.code !== 'EEXIST') throw made;
        });
        return openFolder(next).catch((again: NodeJS.ErrnoException) => {
          throw changedDuringWrite(dir, again);
        });
      });
      await current.close();
      current = opened;
    }
    return current;
  } catch (error) {
    await current.close();
    throw error;
  }
}

function openFolder(path: string): Promise<FileHandle> {
  return open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
}

function changedDuringWrite(dir: string, error: NodeJS.ErrnoException): Error {
  if (error.code === 'ELOOP' || error.code === 'ENOTDIR') return new Error(`a folder of ${dir} was replaced by a symbolic link or a file while writing; nothing was written.`);
  return error;
}

/** Where folders cannot be opened relative to each other: check each for a link just before writing (a narrower window). */
async function writeThroughPaths(path: string, tempName: string, data: Uint8Array | string, mode: number | undefined): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  for (let folder = dir; dirname(folder) !== folder; folder = dirname(folder)) {
    if ((await lstat(folder)).isSymbolicLink()) throw new Error(`${folder} became a symbolic link while writing; nothing was written.`);
  }
  await writeAndRename(join(dir, tempName), path, data, mode);
}
