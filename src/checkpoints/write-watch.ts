import type { FileAccess } from '../tools/coding/shared/file-access.js';

/**
 * Tells the checkpoints of a run, just before a file tool writes, which file it is about to write,
 * and holds the write until its earlier content is in the store. One per process, shared by the file
 * tools (through `watchedFileAccess`) and the run being checkpointed (`listen`).
 */
export class WriteWatch {
  private listener: ((absolute: string) => Promise<void>) | undefined;

  async beforeWrite(absolute: string): Promise<void> {
    await this.listener?.(absolute);
  }

  /** While a run is checkpointed; returns how to stop. */
  listen(listener: (absolute: string) => Promise<void>): () => void {
    this.listener = listener;
    return () => {
      if (this.listener === listener) this.listener = undefined;
    };
  }
}

/** `access` whose writes wait for `watch` first. */
export function watchedFileAccess(access: FileAccess, watch: WriteWatch): FileAccess {
  return {
    read: (absolute, maxBytes) => access.read(absolute, maxBytes),
    write: async (absolute, bytes, options) => {
      await watch.beforeWrite(absolute);
      await access.write(absolute, bytes, options);
    },
  };
}
