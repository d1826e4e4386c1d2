import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export class SessionBusyError extends Error {
  override name = 'SessionBusyError';
}

export interface SessionLock {
  release(): void;
}

/**
 * One writer per session: `<id>.lock` holds the writer's pid. Two runs appending to one file
 * would interleave their turns into a history neither saw. A lock whose process is gone (it was
 * killed) is taken over. The session's directory is created if needed, since a new session is
 * locked before its file is.
 */
export function lockSession(sessionPath: string): SessionLock {
  const lockPath = sessionPath.replace(/\.jsonl$/, '') + '.lock';
  mkdirSync(dirname(lockPath), { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return { release: () => unlinkQuietly(lockPath) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readQuietly(lockPath));
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) {
        throw new SessionBusyError(`Session ${sessionPath} is in use by another vibe-agent run (pid ${owner}). Let it finish, or start a new session.`);
      }
      unlinkQuietly(lockPath);
    }
  }
  throw new SessionBusyError(`Could not lock session ${sessionPath}: another run keeps taking the lock.`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readQuietly(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
