import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../../eval/package-root.js';
import { agentEnvironment } from '../../../secrets/held-secrets.js';
import { startServer } from '../../../server/http-server.js';
import { loadOrCreateToken } from '../../../server/server-token.js';
import { userDataDir } from '../../../session/paths.js';
import type { CliArgs } from '../../args/cli-args.js';
import { safeStderr, safeStdout } from '../../display/safe-output.js';
import { EXIT } from '../../settings/exit-codes.js';
import type { ServeArgs } from './serve-args.js';
import { servedSessions } from './served-sessions.js';
import { ServedIds } from './served-ids.js';
import { clearServerAddress, writeServerAddress } from '../background/server-address.js';

/** Resolves once the server has been idle (nothing running, no stream) for `seconds` in a row. */
function stopWhenIdle(server: { busy(): boolean }, seconds: number): { done: Promise<void>; cancel(): void } {
  let idleSince = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const done = new Promise<void>((resolve) => {
    timer = setInterval(() => {
      if (server.busy()) idleSince = Date.now();
      else if (Date.now() - idleSince >= seconds * 1000) resolve();
    }, Math.min(5_000, seconds * 250));
  });
  return { done, cancel: () => clearInterval(timer) };
}

/** `vibe-agent serve`: many sessions in one process over HTTP, until Ctrl-C or SIGTERM. */
export async function serveCommand(args: CliArgs & { serve?: ServeArgs }, signal: AbortSignal, env: NodeJS.ProcessEnv = agentEnvironment()): Promise<number> {
  const options = args.serve ?? { host: '127.0.0.1', port: 4317, allowOrigins: [] };
  const stateDir = join(userDataDir(env), 'serve');
  const tokenFile = options.tokenFile ?? join(stateDir, 'token');
  const { token, created } = loadOrCreateToken(tokenFile);
  const version = (JSON.parse(readFileSync(`${packageRoot(import.meta.url)}/package.json`, 'utf8')) as { version: string }).version;
  const warn = (text: string) => safeStderr.write(`vibe-agent: warning: ${text}\n`);
  const server = await startServer({
    host: options.host,
    port: options.port,
    version,
    token,
    allowOrigins: options.allowOrigins,
    sessions: servedSessions(args, new ServedIds(join(stateDir, 'sessions.jsonl')), env, warn),
    limits: { ...(options.maxSessions ? { sessions: options.maxSessions } : {}), ...(options.maxStreams ? { streams: options.maxStreams } : {}) },
  });
  writeServerAddress(env, { url: server.url, pid: process.pid, tokenFile });
  safeStdout.write(`Listening on ${server.url}\n`);
  // The token is printed the one time it is made; afterwards only where it is.
  safeStdout.write(created ? `Token (saved in ${tokenFile}, shown only now): ${token}\n` : `Token: in ${tokenFile}\n`);
  safeStdout.write(`Live page: ${server.url}/#token=TOKEN (vibe-agent agents --page opens it with the token)\n`);
  const idle = options.idleExit ? stopWhenIdle(server, options.idleExit) : undefined;
  const aborted = new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
  if (!signal.aborted) await (idle ? Promise.race([aborted, idle.done]) : aborted);
  idle?.cancel();
  clearServerAddress(env, process.pid);
  await server.close();
  return EXIT.answered;
}
