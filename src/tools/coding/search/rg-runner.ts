import { isAscii } from 'node:buffer';
import { spawn } from 'node:child_process';

export interface RipgrepRun {
  code: number | null;
  stderr: string;
}

export interface RipgrepOptions {
  cwd: string;
  signal: AbortSignal;
  /** One NUL-ended record of stdout (`--null`), decoded as UTF-8. */
  onRecord?(record: string): void;
  /** In place of onRecord: whole records at a time, joined by NULs (none after the last); `ascii` when each byte was. */
  onRecords?(records: string, ascii: boolean): void;
  /** Called once the process runs; may call `stop` to kill it and reject with `reason`. Returns what to do when it ends. */
  onSpawn?(pid: number, stop: (reason: unknown) => void): () => void;
}

const MAX_STDERR_CHARS = 4_000;

/**
 * Runs ripgrep, streaming its NUL-separated records; on abort the process is killed and the
 * promise rejects. Each chunk is decoded once up to its last NUL and split there: no UTF-8
 * sequence holds a NUL byte, so this is what decoding each record alone gives, at a fraction of
 * the calls.
 */
export function runRipgrep(binary: string, args: string[], options: RipgrepOptions): Promise<RipgrepRun> {
  return new Promise((resolve, reject) => {
    options.signal.throwIfAborted();
    const child = spawn(binary, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    // Chunks of a record not yet ended; joined only once its end arrives.
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
    const onEnd = child.pid === undefined ? undefined : options.onSpawn?.(child.pid, fail);
    const emit = (buffer: Buffer, end: number) => {
      const text = buffer.toString('utf8', 0, end);
      if (options.onRecords) options.onRecords(text, isAscii(buffer.subarray(0, end)));
      else for (const record of text.split('\0')) options.onRecord?.(record);
    };

    child.stdout.on('data', (chunk: Buffer) => {
      if (failed) return;
      const last = chunk.lastIndexOf(0);
      if (last === -1) {
        pending.push(chunk);
        return;
      }
      const buffer = pending.length > 0 ? Buffer.concat([...pending, chunk]) : chunk;
      const end = buffer.length - (chunk.length - last);
      pending = last + 1 < chunk.length ? [chunk.subarray(last + 1)] : [];
      try {
        emit(buffer, end);
      } catch (error) {
        fail(error);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      if (stderr.length < MAX_STDERR_CHARS) stderr += text;
    });
    child.on('error', fail);
    child.on('close', (code) => {
      options.signal.removeEventListener('abort', onAbort);
      onEnd?.();
      if (failed) return;
      try {
        const rest = Buffer.concat(pending);
        if (rest.length > 0) emit(rest, rest.length);
      } catch (error) {
        fail(error);
        return;
      }
      resolve({ code, stderr: stderr.slice(0, MAX_STDERR_CHARS) });
    });
  });
}
