import { closeSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';

/** O_DIRECTORY in fdinfo's octal `flags`: a folder's position is a cookie of the file system (a hash on ext4), not bytes read. */
const O_DIRECTORY = 0o200000;
const WATCH_EVERY_MS = 50;

let supported: boolean | undefined;

/** Whether this system shows a process's open files and their read positions (Linux's /proc/<pid>/fdinfo). */
export function canWatchReads(): boolean {
  if (supported === undefined) {
    supported = readsPast(process.pid, Number.MAX_SAFE_INTEGER) === false && positionShown();
  }
  return supported;
}

/** Whether a file this process opens shows its read position. */
function positionShown(): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(process.execPath, 'r');
    return /^pos:\s*0$/m.test(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Whether process `pid` has read more than `limit` bytes into a regular file it holds open; undefined
 * when its open files cannot be seen (it ended, or /proc refuses).
 */
export function readsPast(pid: number, limit: number): boolean | undefined {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fdinfo`);
  } catch {
    return undefined;
  }
  for (const fd of fds) {
    try {
      const info = readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8');
      const pos = Number(/^pos:\s*(\d+)$/m.exec(info)?.[1] ?? 0);
      if (pos <= limit) continue;
      const flags = Number.parseInt(/^flags:\s*([0-7]+)$/m.exec(info)?.[1] ?? '0', 8);
      if ((flags & O_DIRECTORY) === 0 && statSync(`/proc/${pid}/fd/${fd}`).isFile()) return true;
    } catch {
      // Closed since the folder was read.
    }
  }
  return false;
}

/**
 * Calls `onHuge` once if process `pid` reads more than `limit` bytes of one file (looked at every
 * 50 ms, so it reads at most what the disk gives in that time beyond the limit). Stops watching
 * once its files can no longer be seen (it ended). Returns the function that stops watching.
 */
export function watchHugeReads(pid: number, limit: number, onHuge: () => void): () => void {
  const timer = setInterval(() => {
    const past = readsPast(pid, limit);
    if (past === false) return;
    clearInterval(timer);
    if (past) onHuge();
  }, WATCH_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
