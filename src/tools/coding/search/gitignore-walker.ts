import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { enterDir, isIgnored, loadAncestors, type IgnoreDir } from './ignore-rules.js';

/** Never searched or listed, whatever the ignore files say. */
export const ALWAYS_SKIPPED = new Set(['.git', 'node_modules']);
/** Directories read between two yields to the event loop, so an abort is seen promptly. */
const DIRS_PER_SLICE = 64;

export interface WalkOptions {
  signal: AbortSignal;
  /** Called for each regular file that is not ignored; `path` is relative to the root, with '/'. */
  onFile(path: string, absolute: string): void;
  /** Called for each ignore file that was refused (a FIFO, a device, too large). */
  onWarning?(message: string): void;
  /** Whether to go into a folder the ignore files do not exclude (by its name and path from the root); default yes. */
  enter?(name: string, path: string): boolean;
}

interface PendingDir {
  absolute: string;
  fromRoot: string;
  parent: IgnoreDir | undefined;
}

/**
 * Walks `root` as ripgrep does with --hidden: hidden files are included, ignore files prune
 * as early as possible (an ignored directory is never read), symbolic links are not followed
 * (neither to files nor to directories), and anything but regular files and directories is
 * skipped, never opened (a FIFO would block, a device never end). Unreadable directories are
 * skipped silently. Order of the callbacks is unspecified.
 */
export async function walkFiles(root: string, options: WalkOptions): Promise<void> {
  const warn = options.onWarning ?? (() => {});
  const pending: PendingDir[] = [{ absolute: root, fromRoot: '', parent: loadAncestors(root, warn) }];
  let sinceYield = 0;
  while (pending.length > 0) {
    if (++sinceYield >= DIRS_PER_SLICE) {
      sinceYield = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
    options.signal.throwIfAborted();
    const { absolute, fromRoot, parent } = pending.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(absolute, { withFileTypes: true });
    } catch {
      continue;
    }
    const dir = enterDir(parent, absolute, fromRoot, new Set(entries.map((entry) => entry.name)), warn);
    for (const entry of entries) {
      if (ALWAYS_SKIPPED.has(entry.name)) continue;
      const path = fromRoot === '' ? entry.name : `${fromRoot}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!isIgnored(dir, path, true) && options.enter?.(entry.name, path) !== false) pending.push({ absolute: join(absolute, entry.name), fromRoot: path, parent: dir });
      } else if (entry.isFile()) {
        if (!isIgnored(dir, path, false)) options.onFile(path, join(absolute, entry.name));
      }
    }
  }
}
