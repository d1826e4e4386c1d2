import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, readlink, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { isSecretPath } from '../workspace/secret-files.js';
import type { ShadowGit } from './shadow-git.js';

/** A file as it was at one moment: absent, its blob in the store, too large to keep, or nothing a snapshot would hold (skip). */
export type Capture = { kind: 'absent' } | { kind: 'blob'; mode: '100644' | '100755' | '120000'; sha: string } | { kind: 'tooLarge' } | { kind: 'skip' };

/**
 * The content of one workspace file (`path`, relative, with `/`) written into the store at once, as
 * `git add` would record it: a regular file's bytes with its executable bit, a symlink's target.
 * What a snapshot never holds is `skip`: a secret file, a path in a nested repository, a special
 * file, an unreadable one. Costs one read and one object write: the file tools call it just before
 * they write, so the first edit of a session need not wait for a snapshot of the whole tree.
 */
export async function capturePath(git: ShadowGit, path: string, maxFileBytes: number): Promise<Capture> {
  if (isSecretPath(path) || git.excludedInside().some((dir) => path === dir || path.startsWith(`${dir}/`))) return { kind: 'skip' };
  if (await inNestedRepository(git.workTree, path)) return { kind: 'skip' };
  const absolute = join(git.workTree, path);
  const info = await lstat(absolute).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' || error.code === 'ENOTDIR' ? null : undefined));
  if (info === null) return { kind: 'absent' };
  if (!info) return { kind: 'skip' };
  if (info.isSymbolicLink()) {
    const target = await readlink(absolute, { encoding: 'buffer' }).catch(() => undefined);
    return target ? { kind: 'blob', mode: '120000', sha: await writeBlob(git, target) } : { kind: 'skip' };
  }
  if (!info.isFile()) return { kind: 'skip' };
  if (info.size > maxFileBytes) return { kind: 'tooLarge' };
  const bytes = await readNoFollow(absolute, maxFileBytes);
  if (!bytes) return { kind: 'skip' };
  return { kind: 'blob', mode: info.mode & 0o111 ? '100755' : '100644', sha: await writeBlob(git, bytes) };
}

/** Writes a blob as a loose object of the store (its own copy, whatever the user's repository holds); returns its id. */
export async function writeBlob(git: ShadowGit, content: Buffer): Promise<string> {
  return writeObject(git, 'blob', content);
}

/** Writes an object (a blob, or a tree built here) as a loose object of the store; returns its id. */
export async function writeObject(git: ShadowGit, type: 'blob' | 'tree', content: Buffer): Promise<string> {
  const object = Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]);
  const sha = createHash('sha1').update(object).digest('hex');
  const path = join(git.gitDir, 'objects', sha.slice(0, 2), sha.slice(2));
  if (await stat(path).catch(() => undefined)) return sha;
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await writeFile(temporary, deflateSync(object), { mode: 0o444 });
  await rename(temporary, path);
  return sha;
}

/** A folder above the path (inside the workspace) that holds a `.git`: git records such a repository as a link, never its files. */
async function inNestedRepository(workTree: string, path: string): Promise<boolean> {
  const parts = path.split('/');
  for (let i = 1; i < parts.length; i++) {
    if (await lstat(join(workTree, ...parts.slice(0, i), '.git')).catch(() => undefined)) return true;
  }
  return false;
}

async function readNoFollow(path: string, maxBytes: number): Promise<Buffer | undefined> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => undefined);
  if (!handle) return undefined;
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > maxBytes) return undefined;
    return await handle.readFile();
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}
