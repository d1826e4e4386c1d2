import { execFile } from 'node:child_process';
import { findOnPath } from '../../../contracts/find-on-path.js';

/** Flags the search tools pass (--no-require-git, --json, -E none) exist from ripgrep 11 on. */
const MIN_MAJOR = 11;

/**
 * Which ripgrep to use: `false` forces the JavaScript engine, a string is the binary to run,
 * 'auto' looks for `rg` on PATH. The environment variable VIBE_AGENT_RG overrides 'auto':
 * "0" disables ripgrep, any other value is taken as the binary.
 */
export type RipgrepSetting = 'auto' | false | string;

const checked = new Map<string, Promise<string | undefined>>();
let lookup: { pathVariable: string; binary: string | undefined } | undefined;

function checkVersion(binary: string): Promise<string | undefined> {
  let result = checked.get(binary);
  if (!result) {
    result = runVersion(binary);
    checked.set(binary, result);
  }
  return result;
}

/**
 * No timeout: on a loaded machine `rg --version` can take seconds, and a timeout would make an
 * installed ripgrep look missing for the rest of the process. Only an answer decides: the binary
 * failed to start, exited with an error, or printed a version below the minimum. A caller that
 * must not wait races it with its own abort signal (`findRipgrep`'s `signal`).
 */
function runVersion(binary: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(binary, ['--version'], (error, stdout) => {
      const major = /ripgrep (\d+)\./.exec(stdout)?.[1];
      resolve(!error && major !== undefined && Number(major) >= MIN_MAJOR ? binary : undefined);
    });
  });
}

/** `found`, or a rejection with the signal's reason once it aborts (the check itself goes on for the next caller). */
function untilAborted<T>(found: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return found;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    found.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * The ripgrep binary to run, or undefined for the JavaScript engine. Each binary is checked once
 * per process; `signal` stops this caller's wait, never the check.
 */
export function findRipgrep(setting: RipgrepSetting = 'auto', signal?: AbortSignal): Promise<string | undefined> {
  return untilAborted(resolveRipgrep(setting), signal);
}

function resolveRipgrep(setting: RipgrepSetting): Promise<string | undefined> {
  if (setting === false) return Promise.resolve(undefined);
  if (setting !== 'auto') return checkVersion(setting);
  const fromEnv = process.env.VIBE_AGENT_RG;
  if (fromEnv === '0') return Promise.resolve(undefined);
  if (fromEnv) return checkVersion(fromEnv);
  const pathVariable = process.env.PATH ?? '';
  if (lookup?.pathVariable !== pathVariable) lookup = { pathVariable, binary: findOnPath('rg') };
  const { binary } = lookup;
  return binary ? checkVersion(binary) : Promise.resolve(undefined);
}
