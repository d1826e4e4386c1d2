import { lstat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What a clean check of a tree saw, to be trusted again while nothing in it changed: each folder
 * it read and each ignore file it vetted, by device, inode and change time. Adding, removing or
 * renaming an entry changes its folder's ctime; writing, chmod or replacing a file changes the
 * file's; a mount shows as another device. A ctime within RACY_MS of the check's start is not
 * trusted (the entry may have changed between the check reading it and its identity being taken,
 * within one tick of the file system's clock): such a tree is checked in full next time.
 */
export interface WalkIdentity {
  /** Paths relative to the root, each with its "dev:ino:ctime". */
  readonly entries: ReadonlyArray<readonly [string, string]>;
}

const RACY_MS = 3_000;
const STATS_AT_ONCE = 64;

function identityOf(info: { dev: bigint; ino: bigint; ctimeNs: bigint }): string {
  return `${info.dev}:${info.ino}:${info.ctimeNs}`;
}

/** The identity of `paths` below `root`, or undefined when one is racy (changed since `checkStartedMs` less RACY_MS) or gone. */
export async function takeIdentity(root: string, paths: readonly string[], checkStartedMs: number, signal: AbortSignal): Promise<WalkIdentity | undefined> {
  const racyFrom = BigInt(checkStartedMs - RACY_MS) * 1_000_000n;
  const entries: Array<readonly [string, string]> = [];
  for (let i = 0; i < paths.length; i += STATS_AT_ONCE) {
    signal.throwIfAborted();
    const batch = await Promise.all(paths.slice(i, i + STATS_AT_ONCE).map((path) => lstat(join(root, path), { bigint: true }).catch(() => undefined)));
    for (const [j, info] of batch.entries()) {
      if (!info || info.ctimeNs >= racyFrom) return undefined;
      entries.push([paths[i + j]!, identityOf(info)]);
    }
  }
  return { entries };
}

/** Whether every entry still has the identity it had. */
export async function stillSame(root: string, identity: WalkIdentity, signal: AbortSignal): Promise<boolean> {
  const { entries } = identity;
  for (let i = 0; i < entries.length; i += STATS_AT_ONCE) {
    signal.throwIfAborted();
    const batch = entries.slice(i, i + STATS_AT_ONCE);
    const now = await Promise.all(batch.map(([path]) => lstat(join(root, path), { bigint: true }).catch(() => undefined)));
    if (now.some((info, j) => !info || identityOf(info) !== batch[j]![1])) return false;
  }
  return true;
}
