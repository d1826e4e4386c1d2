import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

/**
 * One land of a worktree at a time, across processes: a file in the worktree's own git folder (where
 * git keeps its locks) holding the landing process's id. A server refuses a session's prompts while it
 * exists, whichever process lands (the CLI's `land`, the server's route). A lock whose process has died
 * (killed mid-land) is stale and taken over.
 */
export type LandLock = { release(): void } | { heldBy: number };

export function takeLandLock(worktree: string): LandLock {
  const file = lockFile(worktree);
  for (let attempt = 0; attempt < 2; attempt++) {
    // Written whole under another name, then linked: the lock never exists without its process id.
    const draft = `${file}.${process.pid}`;
    writeFileSync(draft, String(process.pid), { mode: 0o600 });
    try {
      linkSync(draft, file);
      return { release: () => rmSync(file, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = liveHolder(file);
      if (holder !== undefined) return { heldBy: holder };
      rmSync(file, { force: true });
    } finally {
      rmSync(draft, { force: true });
    }
  }
  return { heldBy: liveHolder(file) ?? 0 };
}

/** The id of the live process landing this worktree now, if one is. */
export function landUnderWay(worktree: string): number | undefined {
  return liveHolder(lockFile(worktree));
}

function liveHolder(file: string): number | undefined {
  let pid: number;
  try {
    pid = Number(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
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
