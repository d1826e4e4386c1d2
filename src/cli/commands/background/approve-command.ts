import { agentEnvironment } from '../../../secrets/held-secrets.js';
import type { CliArgs } from '../../args/cli-args.js';
import { safeStderr, safeStdout } from '../../display/safe-output.js';
import { colorEnabled, createTheme } from '../../display/theme.js';
import { visibleText } from '../../display/visible-text.js';
import { readKeyAnswer, takesSingleKeys } from '../../setup/read-key-answer.js';
import { EXIT } from '../../settings/exit-codes.js';
import { UsageError } from '../../settings/usage-error.js';
import { keyChoice, keysLine } from '../../tui/approval-keys.js';
import type { AgentRow } from './agent-status.js';
import { findBackgroundEntry } from './background-registry.js';
import { findServer, type ServerConnection } from './server-address.js';

export interface ApproveArgs {
  id: string;
  /** The request to answer (as `agents` showed it); without it, each waiting one is shown and asked in turn. */
  requestId?: string;
  decision: 'allow' | 'deny' | 'always';
}

type Pending = AgentRow['pendingApprovals'][number];

/**
 * `vibe-agent approve ID [REQUEST] [--deny|--always]`: answers a background session's waiting approval
 * through the server, where the first answer from any client wins. On a terminal each question is shown
 * whole (tool, summary, diff or command) and answered by one key; without one, only a REQUEST named
 * as `agents` showed it is answered, so nothing is approved that was not seen.
 */
export async function approveCommand(args: CliArgs & { approve?: ApproveArgs }, env: NodeJS.ProcessEnv = agentEnvironment()): Promise<number> {
  if (!args.approve) throw new UsageError('approve needs a session: vibe-agent approve ID [REQUEST] [--deny|--always]');
  const entry = findBackgroundEntry(env, args.approve.id);
  const server = await findServer(env);
  if (!server) throw new Error(`the session server is not running, so ${entry.name} is not waiting for anything`);
  const info = await server.client.GET('/v1/sessions/{id}', { params: { path: { id: entry.id } } });
  if (!info.data) throw new Error(`the server did not open ${entry.name} (${info.response.status}: ${info.error?.error ?? 'no reason given'})`);
  const pending: Pending[] = info.data.pendingApprovals;
  const wanted = args.approve.requestId;
  if (wanted !== undefined) {
    const named = pending.find((one) => one.requestId === wanted);
    if (!named) return refuse(`${entry.name} has no waiting approval ${wanted}${pending.length ? ` (waiting: ${pending.map((one) => one.requestId).join(', ')})` : ' (nothing is waiting)'}`);
    if (args.approve.decision === 'always' && !named.always) return refuse(`${wanted} offers no "always" (${named.tool} is asked each time); answer it with --deny or without a flag`);
    return (await answer(server, entry.id, named, args.approve.decision)) ? EXIT.answered : EXIT.providerError;
  }
  if (!pending.length) {
    safeStdout.write(`${entry.name} is not waiting for an approval.\n`);
    return EXIT.answered;
  }
  const input = process.stdin;
  if (!takesSingleKeys(input) || process.stderr.isTTY !== true) {
    safeStderr.write(`${pending.map((one) => describePending(one)).join('\n')}\nvibe-agent approve: nothing answered; run it in a terminal to be asked, or name the request: vibe-agent approve ${entry.name} ${pending[0]!.requestId} [--deny]\n`);
    return EXIT.providerError;
  }
  const t = createTheme(colorEnabled(process.stderr));
  for (const one of pending) {
    safeStderr.write(`${describePending(one)}\n${keysLine(one.always, t)} `);
    const read = await readKeyAnswer(input, (key) => keyChoice(key, one.always !== undefined));
    const chosen = 'ended' in read ? 'escape' : read.chosen;
    if (chosen === 'interrupt' || chosen === 'escape') {
      safeStderr.write(`\n  ${t.dim('not answered: it is still waiting')}\n`);
      return EXIT.aborted;
    }
    safeStderr.write('\n');
    await answer(server, entry.id, one, chosen === 'yes' ? 'allow' : chosen === 'no' ? 'deny' : 'always');
  }
  return EXIT.answered;
}

/** A waiting question as every front end shows it: the request, the tool and its one line, then the diff or command. */
export function describePending(one: Pending): string {
  const detail = one.detail ? `\n${visibleText(one.detail).replace(/^/gm, '    ')}` : '';
  return `approval ${one.requestId}: ${visibleText(one.tool)} ${visibleText(one.summary)}${detail}`;
}

async function answer(server: ServerConnection, id: string, one: Pending, decision: ApproveArgs['decision']): Promise<boolean> {
  const sent = await server.client.POST('/v1/sessions/{id}/approvals/{requestId}', { params: { path: { id, requestId: one.requestId } }, body: { decision } });
  if (sent.data) {
    safeStdout.write(`${decision === 'deny' ? 'Denied' : decision === 'always' ? `Allowed (always: ${one.always})` : 'Allowed'}: ${one.tool} ${visibleText(one.summary)}\n`);
    return true;
  }
  if (sent.response.status === 409) safeStderr.write(`vibe-agent approve: ${one.requestId} was answered already (by another client, or its turn ended); this answer changed nothing.\n`);
  else safeStderr.write(`vibe-agent approve: the server refused the answer (${sent.response.status}: ${sent.error?.error ?? 'no reason given'}).\n`);
  return false;
}

function refuse(text: string): number {
  safeStderr.write(`vibe-agent approve: ${text}\n`);
  return EXIT.providerError;
}
