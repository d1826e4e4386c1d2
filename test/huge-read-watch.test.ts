import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canWatchReads, readsPast, watchHugeReads } from '../src/tools/coding/search/huge-read-watch.js';

let base: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'vibe-huge-read-'));
  await writeFile(join(base, 'file.txt'), 'x'.repeat(4096));
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/** A process that holds a folder open (read through) and `file.txt` open with `bytes` of it read, then waits. */
async function reader(bytes: number): Promise<ChildProcess> {
  const script = `
    const fs = require('node:fs');
    const dir = fs.opendirSync(${JSON.stringify(base)}); while (dir.readSync()) {}
    const fd = fs.openSync(${JSON.stringify(join(base, 'file.txt'))}, 'r');
    fs.readSync(fd, Buffer.alloc(${bytes}), 0, ${bytes}, null);
    process.stdout.write('ready');
    process.stdin.resume();`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  await once(child.stdout!, 'data');
  return child;
}

describe.runIf(canWatchReads())('huge-read watch (Linux /proc)', () => {
  it('sees how far a process has read into the regular files it holds, not its folders or pipes', async () => {
    const child = await reader(2000);
    try {
      expect(readsPast(child.pid!, 1999)).toBe(true);
      expect(readsPast(child.pid!, 2000)).toBe(false);
    } finally {
      child.kill();
    }
  });

  it('calls back once a watched process reads past the limit', async () => {
    const child = await reader(3000);
    try {
      const seen = new Promise<void>((resolve) => watchHugeReads(child.pid!, 1000, resolve));
      await seen;
    } finally {
      child.kill();
    }
  });

  it('says it cannot see a process that has ended', async () => {
    const child = await reader(10);
    child.kill();
    await once(child, 'close');
    expect(readsPast(child.pid!, 0)).toBeUndefined();
  });
});
