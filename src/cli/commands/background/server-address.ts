import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVibeClient, type VibeClient } from '../../../client/index.js';
import { userDataDir } from '../../../session/paths.js';

/** Where a running `serve` says it listens: written once it listens, removed when it stops. */
export interface ServerAddress {
  url: string;
  pid: number;
  /** Its token file (a path; the token itself is never written here). */
  tokenFile: string;
}

export const serveStateDir = (env: NodeJS.ProcessEnv) => join(userDataDir(env), 'serve');
const addressFile = (env: NodeJS.ProcessEnv) => join(serveStateDir(env), 'address.json');

export function writeServerAddress(env: NodeJS.ProcessEnv, address: ServerAddress): void {
  mkdirSync(serveStateDir(env), { recursive: true, mode: 0o700 });
  const file = addressFile(env);
  writeFileSync(`${file}.${process.pid}`, JSON.stringify(address), { mode: 0o600 });
  renameSync(`${file}.${process.pid}`, file);
}

/** Removes the address file if it is still this process's (a later server may have replaced it). */
export function clearServerAddress(env: NodeJS.ProcessEnv, pid: number): void {
  if (readServerAddress(env)?.pid === pid) rmSync(addressFile(env), { force: true });
}

export function readServerAddress(env: NodeJS.ProcessEnv): ServerAddress | undefined {
  try {
    const parsed = JSON.parse(readFileSync(addressFile(env), 'utf8')) as ServerAddress;
    return typeof parsed.url === 'string' && typeof parsed.pid === 'number' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export interface ServerConnection {
  url: string;
  pid: number;
  token: string;
  client: VibeClient;
}

/** The running server of this data folder, when its address answers health and its token file is readable. */
export async function findServer(env: NodeJS.ProcessEnv): Promise<ServerConnection | undefined> {
  const address = readServerAddress(env);
  if (!address) return undefined;
  try {
    const health = await fetch(`${address.url}/v1/health`, { signal: AbortSignal.timeout(10_000) });
    if (!health.ok) return undefined;
  } catch {
    return undefined;
  }
  let token: string;
  try {
    token = readFileSync(address.tokenFile, 'utf8').trim();
  } catch {
    return undefined;
  }
  return { url: address.url, pid: address.pid, token, client: createVibeClient({ baseUrl: address.url, token }) };
}

/**
 * The running server, or a new one started detached (`serve --port 0 --idle-exit`): its stdout (which
 * would carry the token) goes nowhere, its stderr to serve/serve.log. Waits until it answers health.
 */
export async function ensureServer(env: NodeJS.ProcessEnv, serveFlags: string[] = []): Promise<ServerConnection & { started: boolean }> {
  const running = await findServer(env);
  if (running) return { ...running, started: false };
  mkdirSync(serveStateDir(env), { recursive: true, mode: 0o700 });
  const log = openSync(join(serveStateDir(env), 'serve.log'), 'a', 0o600);
  // This very CLI (bundled, this module's own URL is a chunk's, so argv names the entry point).
  const main = process.argv[1] ?? fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, [main, 'serve', '--port', '0', '--idle-exit', '300', ...serveFlags], { detached: true, stdio: ['ignore', 'ignore', log], env });
  closeSync(log);
  let exited: number | null | undefined;
  child.on('exit', (code) => (exited = code));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (exited !== undefined) throw new Error(`the session server stopped as it started (exit ${exited}); see ${join(serveStateDir(env), 'serve.log')}`);
    const address = readServerAddress(env);
    if (address?.pid === child.pid) {
      const found = await findServer(env);
      if (found) {
        child.unref();
        return { ...found, started: true };
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the session server did not start within a minute; see ${join(serveStateDir(env), 'serve.log')}`);
}
