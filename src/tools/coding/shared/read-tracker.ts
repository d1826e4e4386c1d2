import { createHash } from 'node:crypto';

/** What the agent knows about a file compared with what is on disk now. */
export type ReadStatus = 'unread' | 'unchanged' | 'changed';

interface Seen {
  mtimeMs: number;
  hash: string;
}

/**
 * Remembers, per absolute path, the file as the agent last saw it (read or wrote it), so an edit
 * that misses can say whether the file moved under the agent or the agent misremembers it.
 */
export class FileReadTracker {
  private readonly seen = new Map<string, Seen>();

  record(absolute: string, content: Uint8Array, mtimeMs: number): void {
    this.seen.set(absolute, { mtimeMs, hash: hashBytes(content) });
  }

  status(absolute: string, content: Uint8Array): ReadStatus {
    const seen = this.seen.get(absolute);
    if (!seen) return 'unread';
    // The hash decides: touching a file without changing it is not a change worth re-reading for.
    return seen.hash === hashBytes(content) ? 'unchanged' : 'changed';
  }

  lastSeen(absolute: string): { mtimeMs: number } | undefined {
    const seen = this.seen.get(absolute);
    return seen && { mtimeMs: seen.mtimeMs };
  }

  forget(absolute: string): void {
    this.seen.delete(absolute);
  }
}

function hashBytes(content: Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}
