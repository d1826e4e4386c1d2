import { readdirSync, realpathSync, statSync, type Dirent, type Stats } from 'node:fs';
import { join } from 'node:path';
import { ANYWHERE, confinedRealPath, fileKind, isWithin, type RefusedFileError } from './read-own-file.js';

export interface ConfinedWalk {
  /** Where the root itself must really be (a project's `.claude/commands` may be a link); default anywhere. */
  within?: readonly string[] | typeof ANYWHERE;
  /** Where a link met in the walk may lead: inside the root (default), or anywhere (the user's own folders). */
  links?: 'inside-root' | typeof ANYWHERE;
  /** Whether to go into a folder (by its name and path as met); default yes. */
  enter?(name: string, path: string): boolean;
  /** A regular file inside the root (its stat taken only when asked for); return false to stop the walk. */
  file(path: string, stats: () => Stats | undefined): boolean | void;
  /** An entry passed over: a link leading outside the root, a dangling link, a FIFO or device. */
  skipped?(path: string, reason: string): void;
}

/**
 * Walks `root` (resolved to its real path) depth-first in name order, with paths as met under `root`.
 * A link is followed only when its target really lies inside the root; a folder reached twice (a
 * link loop) is walked once. Folders that cannot be read are passed over. No recursion: a deep tree
 * cannot overflow the stack.
 */
export function walkConfined(root: string, walk: ConfinedWalk): void {
  let realRoot: string;
  try {
    realRoot = confinedRealPath(root, walk.within ?? ANYWHERE);
  } catch (error) {
    if ((error as RefusedFileError).code !== 'ENOENT') walk.skipped?.(root, (error as RefusedFileError).reason);
    return;
  }
  const seen = new Set<string>([realRoot]);
  const pending: Folder[] = [{ path: root, real: realRoot }];
  while (pending.length) {
    const dir = pending.pop()!;
    const subfolders: Folder[] = [];
    for (const dirent of entriesOf(dir.path)) {
      const path = join(dir.path, dirent.name);
      // A link's target is checked against the root's real path: `../..` or an absolute link leads out.
      const entry = dirent.isSymbolicLink() ? resolveLink(path, walk.links === ANYWHERE ? undefined : realRoot) : plainEntry(path, dir.real, dirent);
      if ('reason' in entry) {
        walk.skipped?.(path, entry.reason);
        continue;
      }
      if (entry.kind === 'folder') {
        if (seen.has(entry.real) || walk.enter?.(dirent.name, path) === false) continue;
        seen.add(entry.real);
        subfolders.push({ path, real: entry.real });
      } else if (entry.kind === 'file') {
        if (walk.file(path, entry.stats) === false) return;
      } else walk.skipped?.(path, `not a regular file (it is ${fileKind(entry.info)})`);
    }
    // Reversed onto the stack, so folders come off it in name order.
    for (let i = subfolders.length - 1; i >= 0; i--) pending.push(subfolders[i]!);
  }
}

interface Folder {
  path: string;
  real: string;
}

type Entry = { kind: 'folder'; real: string } | { kind: 'file'; stats: () => Stats | undefined } | { kind: 'other'; info: Stats } | { reason: string };

function entriesOf(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

/** An entry that is not a link: its real path is its folder's real path and its name. */
function plainEntry(path: string, realDir: string, dirent: Dirent): Entry {
  if (dirent.isDirectory()) return { kind: 'folder', real: join(realDir, dirent.name) };
  // Most entries are files: no stat unless the caller wants one (a walk over a large tree stays cheap).
  if (dirent.isFile()) return { kind: 'file', stats: () => statSync(path, { throwIfNoEntry: false }) };
  // A file system that does not tell entry types, or a FIFO, socket or device.
  return classify(join(realDir, dirent.name), statSync(path, { throwIfNoEntry: false }));
}

function resolveLink(path: string, realRoot: string | undefined): Entry {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return { reason: 'a link to nothing' };
  }
  if (realRoot !== undefined && !isWithin(realRoot, real)) return { reason: `leads outside ${realRoot} (to ${real})` };
  return classify(real, statSync(real, { throwIfNoEntry: false }));
}

function classify(real: string, info: Stats | undefined): Entry {
  if (!info) return { reason: 'gone while it was listed' };
  if (info.isDirectory()) return { kind: 'folder', real };
  if (info.isFile()) return { kind: 'file', stats: () => info };
  return { kind: 'other', info };
}
