import * as fs from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { FileOp } from './restore.js';
import type { ShadowGit } from './shadow-git.js';
import { readBlobs, SYMLINK_MODE, type TreeEntry } from './tree-objects.js';

/** The file-system calls a rewind makes (a test passes one that fails part-way). */
export type FileIo = Pick<typeof fs, 'unlink' | 'rmdir' | 'mkdir' | 'writeFile' | 'symlink' | 'rename' | 'chmod' | 'lstat' | 'readdir'>;

/**
 * Carries checked ops out: removals (and the folders they empty), then files written through a
 * temporary name and renamed into place. Each step is journalled; if one fails, the steps done are
 * undone in reverse from the snapshot's blobs (the backup taken when the rewind was planned), so
 * the workspace is as it was, and the error says so.
 */
export async function applyFileOps(git: ShadowGit, ops: readonly FileOp[], io: FileIo = fs): Promise<void> {
  const root = git.workTree;
  const then = await readBlobs(git, ops.flatMap((op) => (op.then ? [op.then.sha] : [])));
  const lost = ops.find((op) => op.then && !then.has(op.then.sha));
  if (lost) throw new Error(`the checkpoint store has lost the content of ${lost.path}; nothing was changed`);
  const undo: Array<() => Promise<void>> = [];
  let step = '';
  try {
    for (const op of ops.filter((op) => !op.then)) {
      step = `removing ${op.path}`;
      const mode = (await io.lstat(join(root, op.path))).mode;
      await io.unlink(join(root, op.path));
      undo.push(() => putBack(git, io, root, op.path, op.now!, mode));
      await removeEmptyFolders(io, root, dirname(op.path), undo);
    }
    for (const op of ops.filter((op) => op.then)) {
      step = `writing ${op.path}`;
      const full = join(root, op.path);
      const before = await io.lstat(full).catch(() => undefined);
      if (before?.isDirectory()) {
        // Holds only files removed above (checked): the folders left are empty.
        await removeFolderTree(io, full, undo);
      }
      await makeFolders(io, root, dirname(op.path), undo);
      await writeEntry(io, full, op.then!, then.get(op.then!.sha)!, before?.isFile() ? before.mode : undefined);
      undo.push(async () => {
        if (op.now && before) await putBack(git, io, root, op.path, op.now, before.mode);
        else await io.unlink(full);
      });
    }
  } catch (error) {
    const failed: string[] = [];
    for (const action of undo.reverse()) await action().catch((undoError: Error) => failed.push(undoError.message));
    const message = (error as Error).message;
    throw new Error(
      failed.length
        ? `the rewind failed while ${step} (${message}) and could not put everything back: ${failed.join('; ')}`
        : `the rewind failed while ${step} (${message}); every file was put back as it was`,
    );
  }
}

async function putBack(git: ShadowGit, io: FileIo, root: string, path: string, entry: TreeEntry, mode: number): Promise<void> {
  const content = (await readBlobs(git, [entry.sha])).get(entry.sha)!;
  await io.mkdir(join(root, dirname(path)), { recursive: true });
  await writeEntry(io, join(root, path), entry, content, mode);
}

/** Writes a file or symlink in place of whatever is there, by rename: never half a file. `keepMode`: the permissions of the file it replaces. */
async function writeEntry(io: FileIo, full: string, entry: TreeEntry, content: Buffer, keepMode: number | undefined): Promise<void> {
  const temporary = join(dirname(full), `.${basename(full)}.vibe-rewind-${process.pid}-${(counter += 1)}`);
  try {
    if (entry.mode === SYMLINK_MODE) await io.symlink(content.toString('utf8'), temporary);
    else {
      const executable = entry.mode === '100755';
      await io.writeFile(temporary, content, { mode: executable ? 0o755 : 0o644, flag: 'wx' });
      if (keepMode !== undefined) await io.chmod(temporary, executable ? (keepMode & 0o777) | ((keepMode & 0o444) >> 2) : keepMode & 0o666);
    }
    await io.rename(temporary, full);
  } catch (error) {
    await io.unlink(temporary).catch(() => undefined);
    throw error;
  }
}

let counter = 0;

async function removeEmptyFolders(io: FileIo, root: string, dir: string, undo: Array<() => Promise<void>>): Promise<void> {
  while (dir !== '.' && dir !== '' && dir !== '/') {
    const full = join(root, dir);
    const entries = await io.readdir(full).catch(() => undefined);
    if (!entries || entries.length > 0) return;
    const { mode } = await io.lstat(full);
    await io.rmdir(full);
    undo.push(() => io.mkdir(full, { mode: mode & 0o7777 }).then(() => undefined));
    dir = dirname(dir);
  }
}

/** Removes a folder tree of empty folders (what the removals left where a file comes back). */
async function removeFolderTree(io: FileIo, full: string, undo: Array<() => Promise<void>>): Promise<void> {
  for (const name of await io.readdir(full)) await removeFolderTree(io, join(full, name), undo);
  const { mode } = await io.lstat(full);
  await io.rmdir(full);
  undo.push(() => io.mkdir(full, { mode: mode & 0o7777 }).then(() => undefined));
}

async function makeFolders(io: FileIo, root: string, dir: string, undo: Array<() => Promise<void>>): Promise<void> {
  if (dir === '.' || dir === '') return;
  const full = join(root, dir);
  const stat = await io.lstat(full).catch(() => undefined);
  if (stat) return;
  await makeFolders(io, root, dirname(dir), undo);
  await io.mkdir(full);
  undo.push(() => io.rmdir(full));
}
