import { agentEnvironment } from '../../../secrets/held-secrets.js';
import type { CliArgs } from '../../args/cli-args.js';
import { safeStdout } from '../../display/safe-output.js';
import { EXIT } from '../../settings/exit-codes.js';
import { UsageError } from '../../settings/usage-error.js';
import { findBackgroundEntry } from './background-registry.js';
import { findServer } from './server-address.js';

/** `vibe-agent stop ID`: the server stops the session (a running turn is interrupted); its worktree stays. */
export async function stopCommand(args: CliArgs & { stopId?: string }, env: NodeJS.ProcessEnv = agentEnvironment()): Promise<number> {
  if (!args.stopId) throw new UsageError('stop needs a session: vibe-agent stop ID');
  const entry = findBackgroundEntry(env, args.stopId);
  const server = await findServer(env);
  if (!server) {
    safeStdout.write(`${entry.name} is not running (no session server is).\n`);
    return EXIT.answered;
  }
  const stopped = await server.client.DELETE('/v1/sessions/{id}', { params: { path: { id: entry.id } } });
  if (stopped.response.status === 404) safeStdout.write(`${entry.name} is not open on the server (stopped already).\n`);
  else if (!stopped.response.ok) throw new Error(`the server did not stop ${entry.name} (${stopped.response.status})`);
  else safeStdout.write(`Stopped ${entry.name} (session ${entry.id})${entry.worktree ? `; its worktree stays: ${entry.worktree}` : ''}.\n`);
  return EXIT.answered;
}
