import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';

const CHUNK_BYTES = 64 * 1024;
// Non-blocking, so a FIFO swapped in after the check cannot block the open.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

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
  return readBoundedBytes(path, maxBytes).toString('utf8');
}

/** readBoundedText's bytes, undecoded. */
export function readBoundedBytes(path: string, maxBytes: number): Buffer {
  requireRegular(path, statOrRefuse(path), maxBytes);
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    throw refusal(path, error);
  }
  try {
    requireRegular(path, fstatSync(fd), maxBytes);
    const chunks = new Chunks(path, maxBytes);
    while (chunks.add(readSync(fd, chunks.next(), 0, chunks.wanted(), null)));
    return chunks.all();
  } catch (error) {
    throw error instanceof RefusedFileError ? error : refusal(path, error);
  } finally {
    closeSync(fd);
  }
}

/** readBoundedBytes without blocking the event loop (for large files the model asked for). */
export async function readBoundedBytesAsync(path: string, maxBytes: number): Promise<Buffer> {
  requireRegular(path, statOrRefuse(path), maxBytes);
  const handle = await open(path, OPEN_FLAGS).catch((error: unknown) => {
    throw refusal(path, error);
  });
  try {
    requireRegular(path, await handle.stat(), maxBytes);
    const chunks = new Chunks(path, maxBytes);
    while (chunks.add((await handle.read(chunks.next(), 0, chunks.wanted(), null)).bytesRead));
    return chunks.all();
  } finally {
    await handle.close();
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

function requireRegular(path: string, info: Stats, maxBytes: number): void {
  if (!info.isFile()) throw new RefusedFileError(`${path} is ${fileKind(info)}, not a regular file; it was not read.`, 'ENOTREG');
  if (info.size > maxBytes) throw tooLarge(path, maxBytes);
}

/**
 * Read in chunks rather than by the stated size, stopping one byte past the cap: a file may grow
 * while it is read, and /proc files say they hold 0 bytes.
 */
class Chunks {
  private readonly chunks: Buffer[] = [];
  private total = 0;
  private current = Buffer.alloc(0);

  constructor(
    private readonly path: string,
    private readonly maxBytes: number,
  ) {}

  next(): Buffer {
    this.current = Buffer.allocUnsafe(this.wanted());
    return this.current;
  }

  wanted(): number {
    return Math.min(CHUNK_BYTES, this.maxBytes + 1 - this.total);
  }

  /** False at the end of the file. */
  add(read: number): boolean {
    if (read === 0) return false;
    this.chunks.push(this.current.subarray(0, read));
    this.total += read;
    if (this.total > this.maxBytes) throw tooLarge(this.path, this.maxBytes);
    return true;
  }

  all(): Buffer {
    return Buffer.concat(this.chunks, this.total);
  }
}

/** What a file system entry is, in words: "a named pipe (FIFO)", "a character device". */
export function fileKind(info: Stats): string {
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
