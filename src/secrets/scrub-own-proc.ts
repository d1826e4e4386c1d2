import { closeSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';

/**
 * Overwrites, in this process's own memory, the bytes the kernel shows as /proc/<pid>/environ and
 * /proc/<pid>/cmdline: those files read the process's *initial* blocks (the strings execve copied
 * onto the stack), which deleting from process.env does not touch. Each `NAME=` entry named is
 * zeroed in the environment block; each secret value found in the argument block becomes `*`s.
 * Linux only (/proc/self/mem; the addresses are /proc/self/stat's arg_start … env_end, fields 48-51).
 * Returns false when it could not (no /proc, a kernel or LSM that refuses writes to /proc/self/mem).
 */
export function scrubOwnProcBlocks(names: readonly string[], values: readonly string[]): boolean {
  if (process.platform !== 'linux' || (names.length === 0 && values.length === 0)) return true;
  let fd: number | undefined;
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // "pid (comm) state …": comm may hold spaces and parentheses, so fields are counted after the last ")"; state is field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const field = (number: number) => Number(fields[number - 3]);
    fd = openSync('/proc/self/mem', 'r+');
    const environ = readBlock(fd, field(50), field(51));
    const entries = new Set(names.map((name) => `${name}=`));
    let at = 0;
    while (at < environ.length) {
      const end = nulOrEnd(environ, at);
      const entry = environ.subarray(at, end);
      const equals = entry.indexOf(0x3d);
      if (equals > 0 && entries.has(entry.subarray(0, equals + 1).toString('latin1'))) writeSync(fd, Buffer.alloc(end - at), 0, end - at, field(50) + at);
      at = end + 1;
    }
    const cmdline = readBlock(fd, field(48), field(49));
    for (const value of values) {
      const bytes = Buffer.from(value);
      for (let found = cmdline.indexOf(bytes); found >= 0; found = cmdline.indexOf(bytes, found + bytes.length)) {
        writeSync(fd, Buffer.alloc(bytes.length, '*'), 0, bytes.length, field(48) + found);
      }
    }
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function readBlock(fd: number, start: number, end: number): Buffer {
  if (!(start > 0 && end > start)) throw new Error('no such block');
  const block = Buffer.alloc(end - start);
  readSync(fd, block, 0, block.length, start);
  return block;
}

function nulOrEnd(block: Buffer, from: number): number {
  const at = block.indexOf(0, from);
  return at < 0 ? block.length : at;
}
