import { spawn } from 'node:child_process';

export interface RipgrepRun {
  code: number | null;
  stderr: string;
}

export interface RipgrepOptions {
  cwd: string;
  signal: AbortSignal;
  /** Byte that ends one record of stdout: "\n" for --json, NUL for --files --null. */
  separator: number;
  /** One record, as a slice of a buffer (so records that are only counted need no decoding). */
  onRecord(buffer: Buffer, start: number, end: number): void;
}

const MAX_STDERR_CHARS = 4_000;

/** Runs ripgrep, streaming its records; on abort the process is killed and the promise rejects. */
export function runRipgrep(binary: string, args: string[], options: RipgrepOptions): Promise<RipgrepRun> {
  return new Promise((resolve, reject) => {
    options.signal.throwIfAborted();
    const child = spawn(binary, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    // Chunks of a record not yet ended; joined only once its end arrives (a long line spans many).
    let pending: Buffer[] = [];
    let stderr = '';
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      child.kill('SIGKILL');
      reject(error);
    };
    const onAbort = () => fail(options.signal.reason);
    options.signal.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      if (failed) return;
      if (chunk.indexOf(options.separator) === -1) {
        pending.push(chunk);
        return;
      }
      const buffer = pending.length > 0 ? Buffer.concat([...pending, chunk]) : chunk;
      pending = [];
      let start = 0;
      try {
        for (let end = buffer.indexOf(options.separator, start); end !== -1; end = buffer.indexOf(options.separator, start)) {
          options.onRecord(buffer, start, end);
          start = end + 1;
        }
      } catch (error) {
        fail(error);
        return;
      }
      if (start < buffer.length) pending.push(buffer.subarray(start));
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      if (stderr.length < MAX_STDERR_CHARS) stderr += text;
    });
    child.on('error', fail);
    child.on('close', (code) => {
      options.signal.removeEventListener('abort', onAbort);
      if (failed) return;
      try {
        const rest = Buffer.concat(pending);
        if (rest.length > 0) options.onRecord(rest, 0, rest.length);
      } catch (error) {
        fail(error);
        return;
      }
      resolve({ code, stderr: stderr.slice(0, MAX_STDERR_CHARS) });
    });
  });
}
