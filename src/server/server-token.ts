import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface ServerToken {
  token: string;
  /** True when this start made it (the one time it is printed). */
  created: boolean;
}

/**
 * The bearer token in `path`: made on first use (32 random bytes, a 0600 file in a 0700 folder)
 * and read afterwards. A file others can read is tightened to 0600 before it is used.
 */
export function loadOrCreateToken(path: string): ServerToken {
  try {
    const mode = statSync(path).mode & 0o777;
    if (mode & 0o077) chmodSync(path, 0o600);
    const token = readFileSync(path, 'utf8').trim();
    if (!/^[A-Za-z0-9._~+/=-]{16,}$/.test(token)) throw new Error(`The token file ${path} does not hold a token (16 or more characters, no spaces).`);
    return { token, created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const token = randomBytes(32).toString('base64url');
  writeFileSync(path, `${token}\n`, { mode: 0o600, flag: 'wx' });
  return { token, created: true };
}
