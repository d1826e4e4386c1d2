import { existsSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { findSession, listSessions } from '../../../session/list-sessions.js';
import { readSessionFile } from '../../../session/read-session.js';
import { buildTrace } from '../../../trace/build-trace.js';
import { tracePageHtml } from '../../../trace/page-html.js';
import { serveTracePage } from '../../../trace/trace-server.js';
import { chartAssets } from '../../../trace/uplot-assets.js';
import type { CliArgs } from '../../args/cli-args.js';
import { safeStderr, safeStdout } from '../../display/safe-output.js';
import { EXIT } from '../../settings/exit-codes.js';
import { openBrowser } from './open-browser.js';
import type { TraceArgs } from './trace-args.js';
import { UsageError } from '../../settings/usage-error.js';
import { agentEnvironment } from '../../../secrets/held-secrets.js';
import { ownRedactor } from '../../../secrets/own-redactor.js';
import { redactedJson } from '../../../session/redact.js';

/** `vibe-agent trace [SESSION] [--html FILE] [--no-open]`: a session as a page, served on 127.0.0.1 or written to a file. */
export async function traceCommand(args: CliArgs & { trace?: TraceArgs }, signal: AbortSignal, env: NodeJS.ProcessEnv = agentEnvironment()): Promise<number> {
  const options = args.trace ?? { noOpen: false };
  const workspace = resolve(args.cwd ?? process.cwd());
  const path = sessionFile(options.session, workspace, env);
  const read = readSessionFile(path);
  const built = await buildTrace(read, { file: path, ...(args.contextWindow !== undefined ? { contextWindow: args.contextWindow } : {}) });
  // The page shows what the session file holds, redacted again with this process's secrets: a file written before a key was known, or imported, is not shown with it.
  const data = JSON.parse(redactedJson(built, ownRedactor(env, [args.apiKey]))) as typeof built;
  if (data.skipped.count) safeStderr.write(`vibe-agent: ${data.skipped.count} unreadable lines or records of ${path} were skipped (listed on the page).\n`);
  const page = tracePageHtml(data, chartAssets());
  const described = `session ${data.session.id || path} (${data.totals.turns} turns)`;

  if (options.html !== undefined) {
    const target = resolve(options.html);
    writeFileSync(target, page);
    safeStdout.write(`Wrote the trace of ${described} to ${target}\n`);
    return EXIT.answered;
  }

  const server = await serveTracePage(page);
  safeStdout.write(`Trace of ${described}: ${server.url}\nServing on 127.0.0.1 only; press Ctrl-C to stop.\n`);
  if (!options.noOpen) openBrowser(server.url);
  if (!signal.aborted) await new Promise((resolved) => signal.addEventListener('abort', resolved, { once: true }));
  await server.close();
  return EXIT.answered;
}

/** The latest session of the workspace, a session id (or unique prefix), or a session file's path. */
function sessionFile(session: string | undefined, workspace: string, env: NodeJS.ProcessEnv): string {
  if (session === undefined) {
    const latest = listSessions(workspace, env)[0];
    if (!latest) throw new UsageError(`No saved session in ${workspace} to trace. Name one (an id or a file), or run a task first.`);
    return latest.path;
  }
  const asPath = resolve(workspace, session);
  if (existsSync(asPath) && statSync(asPath).isFile()) return asPath;
  const found = findSession(workspace, session, env);
  if (!found.ok) {
    const hint = found.matches.length ? `\nMatching: ${found.matches.map((s) => s.id).join(', ')}` : '\nList them with: vibe-agent sessions';
    throw new UsageError(`${found.reason}${hint}`);
  }
  return found.session.path;
}
