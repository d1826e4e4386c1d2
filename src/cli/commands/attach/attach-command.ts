import { agentEnvironment } from '../../../secrets/held-secrets.js';
import type { CliArgs } from '../../args/cli-args.js';
import { colorEnabled, createTheme } from '../../display/theme.js';
import { safeStderr } from '../../display/safe-output.js';
import { prepareRun } from '../../setup/prepare-run.js';
import { UsageError } from '../../settings/usage-error.js';
import { InteractiveSession } from '../../tui/interactive.js';
import type { InteractiveServices } from '../../tui/services.js';
import { findBackgroundEntry } from '../background/background-registry.js';
import { ensureServer } from '../background/server-address.js';
import { createInteractiveServices } from '../interactive/interactive-services.js';
import { REFUSED, RemoteConversation } from './remote-conversation.js';

/** The key line of an attached terminal: how to leave it without stopping the session. */
export const ATTACHED_KEYS = 'Attached · Ctrl-D or /detach detaches (it keeps running) · Esc or Ctrl-C stops its turn · Shift+Tab cycles modes';

/**
 * `vibe-agent attach ID`: the terminal UI on a background session the server hosts. Its history
 * (the stored events) shows first, then its live events; its approvals are asked here (the first
 * answer from any client wins); detaching leaves it running. A finished session is shown as it is:
 * the server holds its file, so nothing is reopened or forked here.
 */
export async function attachCommand(args: CliArgs & { attachId?: string }, signal: AbortSignal, env: NodeJS.ProcessEnv = agentEnvironment()): Promise<number> {
  if (!args.attachId) throw new UsageError('Usage: vibe-agent attach ID');
  const entry = findBackgroundEntry(env, args.attachId);
  if (process.stdin.isTTY !== true || process.stdout.isTTY !== true) throw new UsageError(`attach opens the terminal UI: run it in a terminal (vibe-agent logs ${entry.name} -f follows the session without one)`);
  const server = await ensureServer(env);
  const info = await server.client.GET('/v1/sessions/{id}', { params: { path: { id: entry.id } } });
  if (!info.data) throw new Error(`the server did not open ${entry.name} (${info.response.status}: ${info.error?.error ?? 'no reason given'})`);
  // The terminal's own conversation is never used (and, with no session, never saved): only the
  // settings, the permission mode and the catalogs around it are.
  const prepared = await prepareRun({ ...args, cwd: entry.workspace, noSession: true });
  try {
    let notify: (text: string) => void = (text) => void safeStderr.write(`vibe-agent: ${text}\n`);
    const local = await createInteractiveServices({ ...args, noSession: true }, prepared);
    const remote = new RemoteConversation(
      server,
      entry.id,
      prepared.resolved.model,
      (text) => notify(`warning: ${text}`),
      // The terminal starts in the session's mode; Shift-Tab, /plan and an approved plan change the session's.
      { lastSeq: info.data.lastSeq, waiting: new Set(info.data.pendingApprovals.map((one) => one.requestId)), mode: info.data.permissionMode ?? prepared.settings.permissionMode },
    );
    const refuse = async (): Promise<never> => Promise.reject(new Error(REFUSED));
    const services: InteractiveServices = {
      ...local,
      conversation: () => remote,
      clear: refuse,
      resume: refuse,
      compact: refuse,
      rewind: refuse,
      checkpoints: async () => [REFUSED],
      checkpointNumbers: () => [],
      spentSoFar: () => undefined,
      goals: { setup: refuse, unfinished: () => undefined },
      moveToBackground: async () => Promise.reject(new Error(`${entry.name} is in the background already: /detach (or Ctrl-D) leaves it running there`)),
      setNotify: (next) => {
        notify = next;
        local.setNotify(next);
      },
      close: async () => {
        await remote.close();
        await local.close();
      },
    };
    const session = new InteractiveSession({
      input: process.stdin,
      output: process.stdout,
      theme: createTheme(colorEnabled(process.stdout)),
      services,
      providerName: `${entry.name} (${entry.id})`,
      model: prepared.resolved.model,
      tools: prepared.tools,
      workspace: entry.workspace,
      maxTurns: prepared.maxTurns,
      signal,
      follow: { keys: ATTACHED_KEYS },
    });
    const code = await session.run();
    const now = (await server.client.GET('/v1/sessions/{id}', { params: { path: { id: entry.id } } })).data;
    const going = now?.status === 'running' || (now?.queued ?? 0) > 0;
    const where = going ? `; it keeps going in the background (vibe-agent agents, vibe-agent attach ${entry.name})` : now?.status === 'idle' ? ` (idle: vibe-agent attach ${entry.name} sends it a prompt)` : ' (stopped)';
    safeStderr.write(`Detached from ${entry.name}${where}.\n`);
    return code;
  } finally {
    await prepared.mcp.close();
  }
}
