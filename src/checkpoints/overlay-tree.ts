import type { Capture } from './pre-image.js';
import { writeObject } from './pre-image.js';
import type { ShadowGit } from './shadow-git.js';
import type { Snapshot } from './snapshot.js';

const TREE_MODE = '40000';

/** A folder of the tree being built: its entries by name, a file's mode and id, or a folder (loaded: a Folder; else its id). */
interface Folder {
  entries: Map<string, { mode: string; sha: string } | Folder>;
}

/**
 * `base` with some files as captured: each captured path takes its captured blob, or leaves the
 * tree when it was absent (or too large: then it is reported as such). A path the base does not
 * hold is added only where a snapshot would have added it (not ignored); `skip` leaves the base's
 * entry as it is. Only the folders on the captured paths are read and written again (tree objects
 * read with `cat-file`, one process per depth, and written by this process): every other folder's
 * tree is reused, so the cost follows the captures, not the workspace (no index of the whole tree).
 */
export async function overlayTree(git: ShadowGit, base: Snapshot, captures: ReadonlyMap<string, Capture>): Promise<Snapshot> {
  const wanted = [...captures].filter(([, capture]) => capture.kind !== 'skip');
  if (!wanted.length) return base;
  const root = await loadFolders(git, base.tree, wanted.map(([path]) => bytewise(path)));
  const held = (path: string) => {
    const entry = lookup(root, bytewise(path));
    return entry !== undefined && !isFolder(entry) && entry.mode !== TREE_MODE;
  };
  const fresh = wanted.filter(([path, capture]) => capture.kind === 'blob' && !held(path)).map(([path]) => path);
  const ignored = new Set(fresh.length ? (await git.run(['check-ignore', '--no-index', '-z', '--stdin'], `${fresh.join('\0')}\0`)).stdout.split('\0').filter(Boolean) : []);
  const tooLarge = new Set(base.tooLarge);
  for (const [path, capture] of wanted) {
    if (capture.kind === 'blob') {
      tooLarge.delete(path);
      if (held(path) || !ignored.has(path)) place(root, bytewise(path), { mode: capture.mode, sha: capture.sha });
    } else {
      if (capture.kind === 'tooLarge') tooLarge.add(path);
      else tooLarge.delete(path);
      if (held(path)) place(root, bytewise(path), undefined);
    }
  }
  const tree = (await writeFolder(git, root)) ?? (await writeObject(git, 'tree', Buffer.alloc(0)));
  return { tree, tooLarge: [...tooLarge].sort() };
}

/** Names are kept as their bytes (latin1 strings), as a tree holds them: a name that is not UTF-8 is written back unchanged. */
function bytewise(path: string): string {
  return Buffer.from(path, 'utf8').toString('latin1');
}

function isFolder(entry: { mode: string; sha: string } | Folder): entry is Folder {
  return 'entries' in entry;
}

/** The base tree's folders on the paths, read level by level (one cat-file per depth). */
async function loadFolders(git: ShadowGit, tree: string, paths: readonly string[]): Promise<Folder> {
  const [root] = await readTrees(git, [tree]);
  const folderPaths = new Set<string>();
  for (const path of paths) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) folderPaths.add(parts.slice(0, i).join('/'));
  }
  const byDepth = [...folderPaths].sort((a, b) => a.split('/').length - b.split('/').length);
  for (let depth = 1; byDepth.some((path) => path.split('/').length === depth); depth++) {
    const level: Array<{ parent: Folder; name: string; sha: string }> = [];
    for (const path of byDepth.filter((path) => path.split('/').length === depth)) {
      const parts = path.split('/');
      const parent = lookup(root!, parts.slice(0, -1).join('/'));
      const name = parts.at(-1)!;
      const entry = parent && isFolder(parent) ? parent.entries.get(name) : undefined;
      if (entry && !isFolder(entry) && entry.mode === TREE_MODE) level.push({ parent: parent as Folder, name, sha: entry.sha });
    }
    const folders = await readTrees(git, level.map((entry) => entry.sha));
    level.forEach((entry, i) => entry.parent.entries.set(entry.name, folders[i]!));
  }
  return root!;
}

/** The entry at `path` among the loaded folders ('' is the root); undefined where nothing is (or not loaded). */
function lookup(root: Folder, path: string): { mode: string; sha: string } | Folder | undefined {
  let entry: { mode: string; sha: string } | Folder | undefined = root;
  for (const name of path ? path.split('/') : []) {
    if (!entry || !isFolder(entry)) return undefined;
    entry = entry.entries.get(name);
  }
  return entry;
}

/** Sets (or, `file` undefined, removes) the file at `path`; a file or nothing where a folder is needed becomes a folder, as `update-index --replace` does. */
function place(root: Folder, path: string, file: { mode: string; sha: string } | undefined): void {
  const parts = path.split('/');
  let folder = root;
  for (const name of parts.slice(0, -1)) {
    const entry = folder.entries.get(name);
    if (entry && isFolder(entry)) folder = entry;
    else if (!file) return;
    else {
      const made: Folder = { entries: new Map() };
      folder.entries.set(name, made);
      folder = made;
    }
  }
  if (file) folder.entries.set(parts.at(-1)!, file);
  else folder.entries.delete(parts.at(-1)!);
}

/** Writes a changed folder (its changed subfolders first); undefined when it is left empty (git records no empty folder). */
async function writeFolder(git: ShadowGit, folder: Folder): Promise<string | undefined> {
  const entries: Array<{ name: Buffer; mode: string; sha: string }> = [];
  for (const [name, entry] of folder.entries) {
    if (isFolder(entry)) {
      const sha = await writeFolder(git, entry);
      if (sha) entries.push({ name: Buffer.from(name, 'latin1'), mode: TREE_MODE, sha });
    } else entries.push({ name: Buffer.from(name, 'latin1'), mode: entry.mode, sha: entry.sha });
  }
  if (!entries.length) return undefined;
  // git's order: bytewise, a folder's name compared as if it ended with '/'.
  const key = (entry: { name: Buffer; mode: string }) => (entry.mode === TREE_MODE ? Buffer.concat([entry.name, Buffer.from('/')]) : entry.name);
  entries.sort((a, b) => Buffer.compare(key(a), key(b)));
  const content = Buffer.concat(entries.flatMap((entry) => [Buffer.from(`${entry.mode} `), entry.name, Buffer.from([0]), Buffer.from(entry.sha, 'hex')]));
  return writeObject(git, 'tree', content);
}

/** Tree objects by id, parsed, in one git process. */
async function readTrees(git: ShadowGit, shas: readonly string[]): Promise<Folder[]> {
  if (!shas.length) return [];
  const out = await git.mustBytes(['cat-file', '--batch'], `${shas.join('\n')}\n`);
  const folders: Folder[] = [];
  let at = 0;
  for (const sha of shas) {
    const headerEnd = out.indexOf(10, at);
    const [, type, size] = out.subarray(at, headerEnd).toString('utf8').split(' ');
    if (headerEnd === -1 || type !== 'tree' || size === undefined) throw new Error(`the checkpoint store has no tree ${sha}`);
    at = headerEnd + 1;
    folders.push(parseTree(out.subarray(at, at + Number(size))));
    at += Number(size) + 1;
  }
  return folders;
}

function parseTree(content: Buffer): Folder {
  const entries = new Map<string, { mode: string; sha: string }>();
  let at = 0;
  while (at < content.length) {
    const space = content.indexOf(32, at);
    const nul = content.indexOf(0, space);
    const mode = content.toString('latin1', at, space);
    const name = content.toString('latin1', space + 1, nul);
    entries.set(name, { mode, sha: content.toString('hex', nul + 1, nul + 21) });
    at = nul + 21;
  }
  return { entries };
}
