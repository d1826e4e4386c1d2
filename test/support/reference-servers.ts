/**
 * The official MCP reference servers (dev dependencies `@modelcontextprotocol/server-*`): their
 * entry points, and the everything server started on a free loopback port over HTTP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

const PACKAGES = join(import.meta.dirname, '..', '..', 'node_modules', '@modelcontextprotocol');

/** `node <entry> …args` runs a reference server; the entry is its package's `bin`. */
export const referenceServer = {
  everything: join(PACKAGES, 'server-everything', 'dist', 'index.js'),
  filesystem: join(PACKAGES, 'server-filesystem', 'dist', 'index.js'),
  memory: join(PACKAGES, 'server-memory', 'dist', 'index.js'),
};

export interface EverythingHttp {
  /** The MCP endpoint: `/mcp` for streamable HTTP, `/sse` for the legacy HTTP+SSE transport. */
  url: string;
  /** What it printed on stdout so far: a line per request, session opened and ended. */
  log(): string;
  close(): Promise<void>;
}

/** What each transport prints on stderr once it listens (it takes its port from PORT). */
const READY: Record<'streamableHttp' | 'sse', { line: RegExp; path: string }> = {
  streamableHttp: { line: /listening on port \d+/, path: '/mcp' },
  sse: { line: /running on port \d+/, path: '/sse' },
};

/**
 * The everything server over HTTP, resolved once it says it listens. The port is found free
 * just before; another process taking it first makes the server exit, and it is tried again.
 */
export async function startEverythingHttp(transport: 'streamableHttp' | 'sse'): Promise<EverythingHttp> {
  let failure = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const child = spawn(process.execPath, [referenceServer.everything, transport], {
      env: { PATH: process.env.PATH ?? '', PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout!.on('data', (data) => (log += data));
    const started = await listening(child, READY[transport].line);
    if (started === true) return { url: `http://127.0.0.1:${port}${READY[transport].path}`, log: () => log, close: () => stop(child) };
    failure = started;
  }
  throw new Error(`the everything server (${transport}) did not start: ${failure}`);
}

/** True once `ready` appears on stderr; the output so far if the process exits first. */
function listening(child: ChildProcess, ready: RegExp): Promise<true | string> {
  return new Promise((resolve) => {
    let output = '';
    child.stderr!.on('data', (data) => {
      output += data;
      if (ready.test(output)) resolve(true);
    });
    child.on('exit', () => resolve(output.trim() || `exited with code ${child.exitCode}`));
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.on('exit', () => resolve());
    child.kill();
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
