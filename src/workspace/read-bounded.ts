import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';

const CHUNK_BYTES = 64 * 1024;

/**
 * Why a file the agent reads on its own initiative (config, ignore files, AGENTS.md, memory) was
 * refused. `code` is ENOENT when it does not exist, ENOTREG when it is not a regular file (a FIFO
 * or /dev/zero would block or never end), EFBIG when it holds more than the cap.
 */
export class RefusedFileError extends Error {
  constructor(
    message: string,
    readonly code: 'ENOENT' | 'ENOTREG' | 'EFBIG' | 'EUNREADABLE',
  ) {
    super(message);
    this.name = 'RefusedFileError';
  }
}

/**
 * Reads a regular file of at most `maxBytes` as UTF-8, or throws RefusedFileError. Anything else
 * is refused before it is opened; the open is non-blocking and checked again (a swap to a FIFO
 * between the two cannot block), and the read stops one byte past the cap (a file that grows
 * forever is never held whole).
 */
export function readBoundedText(path: string, maxBytes: number): string {
  requireRegular(path, statOrRefuse(path));
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    throw refusal(path, error);
  }
  try {
    const info = fstatSync(fd);
    requireRegular(path, info);
    if (info.size > maxBytes) throw tooLarge(path, maxBytes);
    // In chunks rather than by the stated size: a file may grow while read, and /proc says 0.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1 - total));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > maxBytes) throw tooLarge(path, maxBytes);
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } catch (error) {
    throw error instanceof RefusedFileError ? error : refusal(path, error);
  } finally {
    closeSync(fd);
  }
}

/** readBoundedText, with a missing file read as undefined. */
export function readBoundedTextIfPresent(path: string, maxBytes: number): string | undefined {
  try {
    return readBoundedText(path, maxBytes);
  } catch (error) {
    if (error instanceof RefusedFileError && error.code === 'ENOENT') return undefined;
    throw error;
  }
}

function statOrRefuse(path: string): Stats {
  try {
    return statSync(path);
  } catch (error) {
    throw refusal(path, error);
  }
}

function requireRegular(path: string, info: Stats): void {
  if (!info.isFile()) throw new RefusedFileError(`${path} is ${kindOf(info)}, not a regular file; it was not read.`, 'ENOTREG');
}

function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return 'a special file';
}

function tooLarge(path: string, maxBytes: number): RefusedFileError {
  return new RefusedFileError(`${path} is larger than ${maxBytes} bytes; it was not read.`, 'EFBIG');
}

function refusal(path: string, error: unknown): RefusedFileError {
  const code = (error as NodeJS.ErrnoException).code;
  const missing = code === 'ENOENT' || code === 'ENOTDIR';
  return new RefusedFileError(missing ? `${path} does not exist.` : `${path} cannot be read: ${(error as Error).message}`, missing ? 'ENOENT' : 'EUNREADABLE');
}
