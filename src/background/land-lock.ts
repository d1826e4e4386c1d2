import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fstatSync, linkSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';

/**
 * One land of a worktree at a time, across processes: a file in the worktree's own git folder (where
 * git keeps its locks) holding the landing process's id. A server refuses a session's prompts while it
 * exists, whichever process lands (the CLI's `land`, the server's route). A lock whose process has died
 * (killed mid-land) is stale and taken over (see takeOver). `heldBy` is undefined when the holder could
 * not be named: the lock changed hands on every look.
 */
export type LandLock = { release(): void } | { heldBy: number | undefined };

/** Looks at a lock that keeps changing hands before giving up on naming its holder. */
const ROUNDS = 8;

export function takeLandLock(worktree: string): LandLock {
  const file = lockFile(worktree);
  // Written whole under a name of this call's own, then linked: the lock never exists without its process id.
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, String(process.pid), { mode: 0o600, flag: 'wx' });
  try {
    for (let round = 0; round < ROUNDS; round++) {
      if (exclusiveLink(draft, file)) return held(file);
      const seen = readLock(file);
      if (!seen) continue; // Released meanwhile.
      if (alive(seen.pid)) return { heldBy: seen.pid };
      const taken = takeOver(file, draft, seen);
      if (taken === 'won') return held(file);
      if (taken !== 'changed') return taken;
    }
    return { heldBy: landUnderWay(worktree) };
  } finally {
    rmSync(draft, { force: true });
  }
}

/**
 * The id of the live process landing this worktree now (or taking over a stale lock to land it), if
 * one is.
 */
export function landUnderWay(worktree: string): number | undefined {
  const file = lockFile(worktree);
  const seen = readLock(file);
  if (seen && alive(seen.pid)) return seen.pid;
  return claims(file)
    .map((claim) => readPid(claim))
    .find((pid): pid is number => pid !== undefined && alive(pid));
}

/** What a lock file is: which process's, and which instance of the file (a new one has another identity). */
interface Seen {
  pid: number;
  identity: string;
}

/**
 * Replaces the stale lock `seen` with this process's, unless another process does. Removing a stale
 * lock and linking anew is not safe: a process that read the dead id before would then remove the new
 * live lock. Instead every process that finds the instance `seen` stale claims its takeover with an
 * exclusive link to a name derived from that instance: `.takeover-<instance>-0`, and if that claim's
 * process has died, `-1`, and so on. The first live claimant on that list is the only one who may
 * touch the lock while it is that instance: it checks the lock is still `seen` and renames its own
 * over it in one step. Nobody else changes a lock whose process is dead, and an instance never comes
 * back once replaced (its identity holds its inode and change time), so that check stays true until
 * the rename. A claim made after the lock changed (a late process) fails that check and is removed.
 */
function takeOver(file: string, draft: string, seen: Seen): 'won' | 'changed' | { heldBy: number } {
  const instance = createHash('sha256').update(seen.identity).digest('hex').slice(0, 16);
  for (let k = 0; ; k++) {
    const claim = `${file}.takeover-${instance}-${k}`;
    if (exclusiveLink(draft, claim)) {
      if (readLock(file)?.identity !== seen.identity) {
        rmSync(claim, { force: true });
        return 'changed';
      }
      renameSync(draft, file);
      return 'won';
    }
    const claimant = readPid(claim);
    // Gone: removed by the process that replaced the stale lock, so the lock has changed.
    if (claimant === undefined) return 'changed';
    if (alive(claimant)) return readLock(file)?.identity === seen.identity ? { heldBy: claimant } : 'changed';
  }
}

/** Ours now: no claim of any instance can still act (every instance but ours is gone for good), nor a dead process's draft. */
function held(file: string): { release(): void } {
  const mine = statSync(file).ino;
  const prefix = `${basename(file)}.`;
  for (const name of readdirSync(dirname(file))) {
    if (!name.startsWith(prefix)) continue;
    const rest = name.slice(prefix.length);
    const draftOf = /^(\d+)(\.[0-9a-f]{8})?$/.exec(rest)?.[1];
    if (rest.startsWith('takeover-') || (draftOf !== undefined && !alive(Number(draftOf)))) rmSync(join(dirname(file), name), { force: true });
  }
  return {
    release: () => {
      const now = readLock(file);
      if (now && now.pid === process.pid && statSync(file, { throwIfNoEntry: false })?.ino === mine) rmSync(file, { force: true });
    },
  };
}

function exclusiveLink(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** The lock as it is now, read through one descriptor (its id and its instance together); undefined if there is none. */
function readLock(file: string): Seen | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd, { bigint: true });
    const text = readFileSync(fd, 'utf8');
    return { pid: Number(text), identity: `${stat.dev}:${stat.ino}:${stat.ctimeNs}:${text}` };
  } finally {
    closeSync(fd);
  }
}

function readPid(file: string): number | undefined {
  try {
    return Number(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function claims(file: string): string[] {
  const prefix = `${basename(file)}.takeover-`;
  try {
    return readdirSync(dirname(file))
      .filter((name) => name.startsWith(prefix))
      .map((name) => join(dirname(file), name));
  } catch {
    return [];
  }
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `<worktree>/.git` is a folder, or (a linked worktree) a file naming its git folder. */
function lockFile(worktree: string): string {
  const dotGit = join(worktree, '.git');
  let gitDir = dotGit;
  try {
    const pointer = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
    if (pointer) gitDir = isAbsolute(pointer) ? pointer : resolve(worktree, pointer);
  } catch {
    // A folder (EISDIR): the lock goes in it.
  }
  return join(gitDir, 'vibe-agent-land.lock');
}
