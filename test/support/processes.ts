/** Process checks by pid, for tests that must leave nothing running. */
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** Alive and not a zombie (orphans in a container whose PID 1 never waits stay zombies). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Polls until `check` holds; throws naming `what` at the deadline (generous: CI runs loaded). */
export async function until<T>(check: () => T | undefined | false | Promise<T | undefined | false>, what: string, withinMs = 20_000): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The pid a test command wrote into a file, once it is there. */
export function pidFrom(path: string): Promise<number> {
  return until(async () => {
    const text = (await readFile(path, 'utf8').catch(() => '')).trim();
    return /^\d+$/.test(text) ? Number(text) : undefined;
  }, `a pid in ${path}`);
}

/**
 * Living processes whose command line holds `marker`, found from this side: a pid a command prints
 * inside the sandbox is its PID namespace's, not ours, so a test finds its processes by a marker.
 */
export function pidsWithArgument(marker: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').includes(marker) && isAlive(pid);
      } catch {
        return false;
      }
    });
}
