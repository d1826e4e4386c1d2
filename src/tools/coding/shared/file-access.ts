import { stat } from 'node:fs/promises';
import { ANYWHERE, readOwnBytesAsync } from '../../../workspace/read-own-file.js';
import { writeFileAtomic } from './atomic-write.js';

/**
 * How the file tools read and write a file's bytes, once its path is resolved and confined to the
 * workspace and the call is permitted. The default is the disk; an editor (ACP) supplies one that
 * goes through its buffers, so unsaved changes are seen and writes land where the user looks.
 */
export interface FileAccess {
  /** The file's current bytes; may refuse (throw) past `maxBytes`. */
  read(absolute: string, maxBytes: number): Promise<Uint8Array>;
  /** Replaces the file's content; `mode` is the old file's permission bits, when it had any. */
  write(absolute: string, bytes: Uint8Array, options: { mode?: number }): Promise<void>;
}

export const diskFileAccess: FileAccess = {
  read: (absolute, maxBytes) => readOwnBytesAsync(absolute, { within: ANYWHERE, maxBytes }),
  write: (absolute, bytes, options) => writeFileAtomic(absolute, bytes, options),
};

/** The file's modification time after a write; an editor may not have saved it to disk, then: now. */
export async function mtimeAfterWrite(absolute: string): Promise<number> {
  return (await stat(absolute).catch(() => undefined))?.mtimeMs ?? Date.now();
}
