import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { nulList, type ShadowGit } from './shadow-git.js';
import { NESTED_REPO_MODE, treeChanges } from './tree-objects.js';

/** Whether the store borrows the user's objects (seedFromUserGit). */
export function borrowsObjects(git: ShadowGit): boolean {
  return existsSync(join(git.gitDir, 'objects', 'info', 'alternates'));
}

/**
 * Copies into the store what a rewind to `tree` may need that only the user's repository holds:
 * its folders' tree objects (write-tree reuses the user's where a folder is as committed), and the
 * earlier side of every file that changed since `previous` (the last snapshot), which is what a
 * rewind writes back. The user's own `git gc` may prune what their history no longer names, so
 * neither may depend on their repository. A file no snapshot saw change needs no copy: a rewind
 * leaves it be. The store so grows with the folders and the changes, not with the files.
 */
export async function keepBorrowedObjects(git: ShadowGit, tree: string, previous: string | undefined): Promise<void> {
  // "<mode> <type> <sha>\t<path>": a nested repository's entry (a commit) is in no store of ours.
  const folders = nulList(await git.must(['ls-tree', '-r', '-d', '-z', '--full-tree', tree])).flatMap((entry) => {
    const [, type, sha] = entry.split(/[ \t]/);
    return type === 'tree' && sha ? [sha] : [];
  });
  const changed = previous && previous !== tree ? await treeChanges(git, previous, tree) : [];
  const earlier = changed.flatMap((change) => (change.from && change.from.mode !== NESTED_REPO_MODE ? [change.from.sha] : []));
  const missing = [...new Set([tree, ...folders, ...earlier])].filter((sha) => !existsSync(looseObject(git, sha)));
  if (!missing.length) return;
  const out = await git.mustBytes(['cat-file', '--batch'], `${missing.join('\n')}\n`);
  const objects: Array<{ sha: string; type: string; content: Buffer }> = [];
  let at = 0;
  for (const sha of missing) {
    const headerEnd = out.indexOf(10, at);
    if (headerEnd === -1) break;
    const [, type, size] = out.subarray(at, headerEnd).toString('utf8').split(' ');
    at = headerEnd + 1;
    if (size === undefined || (type !== 'blob' && type !== 'tree')) throw new Error(`the checkpoint store cannot copy ${sha} from the user's repository`);
    objects.push({ sha, type, content: out.subarray(at, at + Number(size)) });
    at += Number(size) + 1;
  }
  // A few writes at a time: a first snapshot of a big tree copies a tree object per folder.
  const made = new Map<string, Promise<unknown>>();
  let next = 0;
  const worker = async () => {
    while (next < objects.length) {
      const { sha, type, content } = objects[next++]!;
      const path = looseObject(git, sha);
      const folder = dirname(path);
      if (!made.has(folder)) made.set(folder, mkdir(folder, { recursive: true }));
      await made.get(folder);
      const temporary = `${path}.${process.pid}.tmp`;
      await writeFile(temporary, deflateSync(Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content])), { mode: 0o444 });
      await rename(temporary, path);
    }
  };
  await Promise.all(Array.from({ length: Math.min(WRITE_PARALLELISM, objects.length) }, worker));
}

/** libuv runs 4 file-system threads; a few more requests in flight keep them busy. */
const WRITE_PARALLELISM = 16;

function looseObject(git: ShadowGit, sha: string): string {
  return join(git.gitDir, 'objects', sha.slice(0, 2), sha.slice(2));
}
