import { readBoundedText, RefusedFileError } from '../workspace/read-bounded.js';

/**
 * Reads a file the agent opens on its own initiative (SKILL.md, a command file) through the shared
 * bounded reader: a regular file only (a FIFO or device is refused without blocking), at most
 * `maxBytes` (a huge or growing file is never held whole). `missing` when it does not exist.
 */
export function readCappedTextFile(path: string, maxBytes: number): { ok: true; text: string } | { ok: false; reason: string; missing?: true } {
  try {
    return { ok: true, text: readBoundedText(path, maxBytes) };
  } catch (error) {
    if (error instanceof RefusedFileError) {
      if (error.code === 'ENOENT') return { ok: false, reason: 'cannot open: it does not exist', missing: true };
      if (error.code === 'ENOTREG') return { ok: false, reason: 'not a regular file' };
      if (error.code === 'EFBIG') return { ok: false, reason: `over the ${maxBytes}-byte limit` };
    }
    return { ok: false, reason: `cannot open: ${(error as Error).message}` };
  }
}
