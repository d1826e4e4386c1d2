import { readEventPage, readEvents, type ServerEvent } from '../../../client/index.js';
import { agentEnvironment } from '../../../secrets/held-secrets.js';
import type { CliArgs } from '../../args/cli-args.js';
import { safeStderr, safeStdout } from '../../display/safe-output.js';
import { EXIT } from '../../settings/exit-codes.js';
import { UsageError } from '../../settings/usage-error.js';
import { fetchAgentRow } from './agent-status.js';
import { findBackgroundEntry, type BackgroundEntry } from './background-registry.js';
import { notifyEnd } from './notify-end.js';
import { findServer, type ServerConnection } from './server-address.js';
import { formatReport } from './session-report.js';

/** `vibe-agent logs ID [-f]`: a background session's events, one JSON line each (`-f`: then live, until its run stops). */
export async function logsCommand(args: CliArgs & { logs?: { id: string; follow: boolean; wait: boolean } }, signal: AbortSignal, env: NodeJS.ProcessEnv = agentEnvironment()): Promise<number> {
  if (!args.logs) throw new UsageError('logs needs a session: vibe-agent logs ID [-f]');
  const entry = findBackgroundEntry(env, args.logs.id);
  const server = await findServer(env);
  if (!server) throw new Error('the session server is not running; start it with vibe-agent serve (its sessions are reopened from their files)');
  const write = args.logs.wait ? () => undefined : (event: ServerEvent) => safeStdout.write(`${JSON.stringify(event)}\n`);
  if (!args.logs.follow && !args.logs.wait) {
    let after = 0;
    for (;;) {
      const page = await readEventPage(server.client, entry.id, after);
      page.events.forEach(write);
      if (!page.more) return endReport(entry, server, false, env);
      after = page.next;
    }
  }
  const info = await server.client.GET('/v1/sessions/{id}', { params: { path: { id: entry.id } } });
  const running = info.data?.status === 'running' || (info.data?.queued ?? 0) > 0;
  const lastSeq = info.data?.lastSeq ?? 0;
  if (args.logs.wait && !running) return endReport(entry, server, true, env);
  for await (const event of readEvents({ baseUrl: server.url, token: server.token, sessionId: entry.id, signal })) {
    write(event);
    // Follows until the run going on when it started (or the next one) stops.
    if (event.type === 'stop' && (running || event.seq > lastSeq)) break;
  }
  return endReport(entry, server, args.logs.wait, env);
}

/** The end-of-session report on stderr (stdout stays JSON lines); with `notify`, on stdout and as a notification too. */
async function endReport(entry: BackgroundEntry, server: ServerConnection, notify: boolean, env: NodeJS.ProcessEnv): Promise<number> {
  const row = await fetchAgentRow(entry, server);
  if (!row.report) return EXIT.answered;
  const lines = formatReport(entry.name, row.report);
  (notify ? safeStdout : safeStderr).write(`${lines.join('\n')}\n`);
  if (notify) await notifyEnd(`vibe-agent: ${entry.name} ${row.state}`, `${row.report.files.length} file${row.report.files.length === 1 ? '' : 's'} changed; vibe-agent agents`, process.stderr, env);
  return EXIT.answered;
}
