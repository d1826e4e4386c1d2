import { closeSync, constants, fstatSync, lstatSync, openSync, readlinkSync, readSync, realpathSync, statSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { isAbsolute, relative, sep } from 'node:path';
import { isSecretPath } from './secret-files.js';

const CHUNK_BYTES = 64 * 1024;
// Non-blocking, so a FIFO swapped in after the checks cannot block the open; no following a link
// swapped in for the resolved path either.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY | constants.O_NOFOLLOW;

/**
 * Why a file the agent reads on its own initiative (config, hooks, MCP server files, skills, agents,
 * commands, knowledge, memory) was refused. `code`: ENOENT it does not exist, EDANGLING it is a link
 * to nothing, EOUTSIDE it leads outside the folder such a file may live in, ENOTREG it is not a regular file
 * (a FIFO or /dev/zero would block or never end), EFBIG it holds more than the cap.
 */
export class RefusedFileError extends Error {
  constructor(
    message: string,
    readonly code: 'ENOENT' | 'EDANGLING' | 'EOUTSIDE' | 'ENOTREG' | 'EFBIG' | 'EUNREADABLE',
    /** Why, in words, without the path: "not a regular file (it is a named pipe (FIFO))", "over the 1024-byte limit". */
    readonly reason: string,
  ) {
    super(message);
    this.name = 'RefusedFileError';
  }
}

/** Anywhere: for the file tools, whose paths were confined by the permission layer before. */
export const ANYWHERE = 'anywhere';

export interface ReadRule {
  /** The folders the file must really be in, after every link is resolved; or ANYWHERE. */
  within: readonly string[] | typeof ANYWHERE;
  maxBytes: number;
  /** Refuse a file whose real path looks like a secret (.env, id_rsa): for files put into a prompt. */
  refuseSecrets?: boolean;
}

/**
 * Reads a file the agent opens on its own: resolved to its real path, which must lie inside
 * `within`; a regular file (checked again with fstat on the opened descriptor, so a FIFO swapped in
 * cannot block) of at most `maxBytes` (the read stops one byte past the cap, so a growing file is
 * never held whole). Throws RefusedFileError naming the file and why.
 */
export function readOwnText(path: string, rule: ReadRule): string {
  return readOwnBytes(path, rule).toString('utf8');
}

export function readOwnBytes(path: string, rule: ReadRule): Buffer {
  const real = checkedRealPath(path, rule);
  let fd: number;
  try {
    fd = openSync(real, OPEN_FLAGS);
  } catch (error) {
    throw refusal(path, error);
  }
  try {
    requireOpened(path, fd, fstatSync(fd), rule);
    const chunks = new Chunks(path, rule.maxBytes);
    while (chunks.add(readSync(fd, chunks.next(), 0, chunks.wanted(), null)));
    return chunks.all();
  } catch (error) {
    throw error instanceof RefusedFileError ? error : refusal(path, error);
  } finally {
    closeSync(fd);
  }
}

/** readOwnText without blocking the event loop between chunks. */
export async function readOwnTextAsync(path: string, rule: ReadRule): Promise<string> {
  return (await readOwnBytesAsync(path, rule)).toString('utf8');
}

export async function readOwnBytesAsync(path: string, rule: ReadRule): Promise<Buffer> {
  const real = checkedRealPath(path, rule);
  const handle = await open(real, OPEN_FLAGS).catch((error: unknown) => {
    throw refusal(path, error);
  });
  try {
    requireOpened(path, handle.fd, await handle.stat(), rule);
    const chunks = new Chunks(path, rule.maxBytes);
    while (chunks.add((await handle.read(chunks.next(), 0, chunks.wanted(), null)).bytesRead));
    return chunks.all();
  } catch (error) {
    throw error instanceof RefusedFileError ? error : refusal(path, error);
  } finally {
    await handle.close();
  }
}

/** readOwnText, with a file that does not exist read as undefined. */
export function readOwnTextIfPresent(path: string, rule: ReadRule): string | undefined {
  try {
    return readOwnText(path, rule);
  } catch (error) {
    if (error instanceof RefusedFileError && error.code === 'ENOENT') return undefined;
    throw error;
  }
}

/** readOwnText as a result: the text, or why not (`missing` when it does not exist). */
export function tryReadOwnText(path: string, rule: ReadRule): { ok: true; text: string } | { ok: false; reason: string; message: string; missing?: true } {
  try {
    return { ok: true, text: readOwnText(path, rule) };
  } catch (error) {
    const refused = error instanceof RefusedFileError ? error : refusal(path, error);
    return { ok: false, reason: refused.reason, message: refused.message, ...(refused.code === 'ENOENT' ? { missing: true as const } : {}) };
  }
}

/**
 * The real path of `path` (a file or a folder) when it lies inside `within`, else RefusedFileError:
 * for a folder whose files are read later (a skill's, a knowledge folder).
 */
export function confinedRealPath(path: string, within: ReadRule['within']): string {
  let real: string;
  try {
    real = realpathSync(path);
  } catch (error) {
    throw refusal(path, error);
  }
  requireWithin(path, real, within);
  return real;
}

function requireWithin(path: string, real: string, within: ReadRule['within']): void {
  if (within !== ANYWHERE && !insideAny(realRoots(within), real)) {
    throw new RefusedFileError(`${path} leads outside ${within.join(' and ')} (to ${real}); it was not read.`, 'EOUTSIDE', `leads outside ${within.join(' and ')} (to ${real})`);
  }
}

export function isWithin(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** The roots as real paths (a root that does not exist stays as written, matching nothing real beneath it). */
export function realRoots(roots: readonly string[]): string[] {
  return roots.map((root) => {
    try {
      return realpathSync(root);
    } catch {
      return root;
    }
  });
}

function insideAny(roots: readonly string[], real: string): boolean {
  return roots.some((root) => isWithin(root, real));
}

function checkedRealPath(path: string, rule: ReadRule): string {
  let real: string;
  let info: Stats;
  try {
    real = realpathSync(path);
    info = statSync(real);
  } catch (error) {
    throw refusal(path, error);
  }
  // Its kind first: a link to /dev/zero is named for what it is, not only for where it leads.
  requireRegular(path, info, rule.maxBytes);
  requireWithin(path, real, rule.within);
  if (rule.refuseSecrets && isSecretPath(real)) throw new RefusedFileError(`${path} leads to ${real}, which looks like a secret; it was not read.`, 'EOUTSIDE', 'leads to a secret file');
  return real;
}

/** The checks again on what was opened: its kind and size, and (where /proc shows it) where it really is. */
function requireOpened(path: string, fd: number, info: Stats, rule: ReadRule): void {
  requireRegular(path, info, rule.maxBytes);
  if (rule.within === ANYWHERE) return;
  const opened = openedPath(fd);
  if (opened !== undefined && !insideAny(realRoots(rule.within), opened)) {
    throw new RefusedFileError(`${path} was moved outside ${rule.within.join(' and ')} while it was opened; it was not read.`, 'EOUTSIDE', `was moved outside ${rule.within.join(' and ')}`);
  }
}

/** Where an open descriptor really points, on Linux; undefined elsewhere. */
function openedPath(fd: number): string | undefined {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

function requireRegular(path: string, info: Stats, maxBytes: number): void {
  if (!info.isFile()) throw new RefusedFileError(`${path} is ${fileKind(info)}, not a regular file; it was not read.`, 'ENOTREG', `not a regular file (it is ${fileKind(info)})`);
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

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function tooLarge(path: string, maxBytes: number): RefusedFileError {
  return new RefusedFileError(`${path} is larger than ${maxBytes} bytes; it was not read.`, 'EFBIG', `over the ${maxBytes}-byte limit`);
}

function refusal(path: string, error: unknown): RefusedFileError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    if (isLink(path)) return new RefusedFileError(`${path} is a link to nothing (${readlinkSync(path)}); it was not read.`, 'EDANGLING', 'a link to nothing');
    return new RefusedFileError(`${path} does not exist.`, 'ENOENT', 'does not exist');
  }
  // O_NOFOLLOW met a link swapped in after the path was resolved.
  if (code === 'ELOOP') return new RefusedFileError(`${path} is a link that was changed while it was opened, or a loop of links; it was not read.`, 'EUNREADABLE', 'a link changed while it was opened, or a loop of links');
  return new RefusedFileError(`${path} cannot be read: ${(error as Error).message}`, 'EUNREADABLE', `cannot be read: ${(error as Error).message}`);
}
