import { lstatSync } from 'node:fs';
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
/** Synchronous stats (a third of the promise API's cost each), this many between yields to the event loop. */
const STATS_PER_SLICE = 512;

function identityOf(path: string): { key: string; ctimeNs: bigint } | undefined {
  const info = lstatSync(path, { bigint: true, throwIfNoEntry: false });
  return info && { key: `${info.dev}:${info.ino}:${info.ctimeNs}`, ctimeNs: info.ctimeNs };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** The identity of `paths` below `root`, or undefined when one is racy (changed since `checkStartedMs` less RACY_MS) or gone. */
export async function takeIdentity(root: string, paths: readonly string[], checkStartedMs: number, signal: AbortSignal): Promise<WalkIdentity | undefined> {
  const racyFrom = BigInt(checkStartedMs - RACY_MS) * 1_000_000n;
  const entries: Array<readonly [string, string]> = [];
  for (const [i, path] of paths.entries()) {
    if (i % STATS_PER_SLICE === STATS_PER_SLICE - 1) await nextTurn();
    signal.throwIfAborted();
    const identity = tryIdentity(join(root, path));
    if (!identity || identity.ctimeNs >= racyFrom) return undefined;
    entries.push([path, identity.key]);
  }
  return { entries };
}

/** Whether every entry still has the identity it had. */
export async function stillSame(root: string, identity: WalkIdentity, signal: AbortSignal): Promise<boolean> {
  for (const [i, [path, key]] of identity.entries.entries()) {
    if (i % STATS_PER_SLICE === STATS_PER_SLICE - 1) await nextTurn();
    signal.throwIfAborted();
    if (tryIdentity(join(root, path))?.key !== key) return false;
  }
  return true;
}

function tryIdentity(path: string): ReturnType<typeof identityOf> {
  try {
    return identityOf(path);
  } catch {
    return undefined;
  }
}
