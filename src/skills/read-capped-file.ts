import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/**
 * Reads a file the agent opens on its own initiative (SKILL.md, a command file): a regular file
 * only, at most `maxBytes`. Plain fs for now; meant to be swapped for the shared bounded reader.
 */
export function readCappedTextFile(path: string, maxBytes: number): { ok: true; text: string } | { ok: false; reason: string } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    return { ok: false, reason: `cannot open: ${(error as Error).message}` };
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return { ok: false, reason: 'not a regular file' };
    if (info.size > maxBytes) return { ok: false, reason: `${info.size} bytes, over the ${maxBytes}-byte limit` };
    const buffer = Buffer.alloc(info.size);
    let read = 0;
    while (read < info.size) {
      const n = readSync(fd, buffer, read, info.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return { ok: true, text: buffer.subarray(0, read).toString('utf8') };
  } finally {
    closeSync(fd);
  }
}
