import { constants } from 'node:fs';
import { lstat, open, readdir, readlink, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { blobId, SYMLINK_MODE, type TreeEntry } from './tree-objects.js';

/** What a path is on disk, read without following a symlink or blocking on a FIFO. */
export type DiskState =
  | { kind: 'absent' | 'dir' | 'other' | 'unreadable' }
  | { kind: 'file'; id: string; mode: number }
  | { kind: 'symlink'; id: string };

export async function diskState(full: string, idLike: string): Promise<DiskState> {
  const stat = await lstat(full).catch((error: NodeJS.ErrnoException) => error);
  if (stat instanceof Error) return { kind: stat.code === 'ENOENT' || stat.code === 'ENOTDIR' ? 'absent' : 'unreadable' };
  if (stat.isDirectory()) return { kind: 'dir' };
  if (stat.isSymbolicLink()) {
    const target = await readlink(full, { encoding: 'buffer' }).catch(() => undefined);
    return target ? { kind: 'symlink', id: blobId(target, idLike) } : { kind: 'unreadable' };
  }
  if (!stat.isFile()) return { kind: 'other' };
  const handle = await open(full, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => undefined);
  if (!handle) return { kind: 'unreadable' };
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) return { kind: 'other' };
    return { kind: 'file', id: blobId(await handle.readFile(), idLike), mode: opened.mode };
  } catch {
    return { kind: 'unreadable' };
  } finally {
    await handle.close();
  }
}

/** Whether what is on disk is exactly the entry a snapshot captured. */
export function isEntry(state: DiskState, entry: TreeEntry): boolean {
  if (entry.mode === SYMLINK_MODE) return state.kind === 'symlink' && state.id === entry.sha;
  return state.kind === 'file' && state.id === entry.sha;
}

type FolderFact = 'absent' | 'unreadable' | 'symlink' | 'not a folder' | 'nested repository' | 'folder';

/** What each folder on disk is, looked up once per rewind check. */
export type FolderFacts = Map<string, Promise<FolderFact>>;

async function folderFact(root: string, dir: string): Promise<FolderFact> {
  const stat = await lstat(join(root, dir)).catch((error: NodeJS.ErrnoException) => error);
  if (stat instanceof Error) return stat.code === 'ENOENT' ? 'absent' : 'unreadable';
  if (stat.isSymbolicLink()) return 'symlink';
  if (!stat.isDirectory()) return 'not a folder';
  return (await lstat(join(root, dir, '.git')).then(() => true, () => false)) ? 'nested repository' : 'folder';
}

/**
 * Why the folders above `path` are unsafe to write through, or undefined: each must be a real
 * folder (or a symlink or file the rewind removes first) and no repository of its own.
 */
export async function parentProblem(root: string, realRoot: string, path: string, goingAway: ReadonlySet<string>, facts: FolderFacts): Promise<string | undefined> {
  const parts = path.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..')) return 'outside the workspace';
  let deepest = root;
  for (let i = 1; i < parts.length; i++) {
    const dir = parts.slice(0, i).join('/');
    if (!facts.has(dir)) facts.set(dir, folderFact(root, dir));
    const fact = await facts.get(dir)!;
    if (fact === 'absent' || goingAway.has(dir)) break;
    if (fact === 'symlink') return 'a parent folder is a symlink';
    if (fact !== 'folder') return fact === 'not a folder' ? 'a parent folder is not a folder' : fact;
    deepest = join(root, dir);
  }
  const real = await realpath(deepest).catch(() => undefined);
  if (!real || (real !== realRoot && !real.startsWith(`${realRoot}/`))) return 'outside the workspace';
  return undefined;
}

/** Whether every file below a folder is one the plan removes (so the folder goes away with them). */
export async function emptiedBy(root: string, dir: string, removed: ReadonlySet<string>): Promise<boolean> {
  const entries = await readdir(join(root, dir), { withFileTypes: true }).catch(() => undefined);
  if (!entries) return false;
  for (const entry of entries) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory() ? !(await emptiedBy(root, path, removed)) : !removed.has(path)) return false;
  }
  return true;
}
