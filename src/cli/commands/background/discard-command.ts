import { agentEnvironment } from '../../../secrets/held-secrets.js';
import type { CliArgs } from '../../args/cli-args.js';
import { safeStderr, safeStdout } from '../../display/safe-output.js';
import { askYesNo, canAskYesNo } from '../../setup/ask-yes-no.js';
import { EXIT } from '../../settings/exit-codes.js';
import { UsageError } from '../../settings/usage-error.js';
import { fetchAgentRow } from './agent-status.js';
import { addBackgroundEntry, findBackgroundEntry } from './background-registry.js';
import { findServer } from './server-address.js';
import { removeWorktree, worktreeLosses } from './worktree.js';

/**
 * `vibe-agent discard ID [--yes]`: removes a background session's worktree and branch. It says first what
 * would be lost (each uncommitted file, each commit no other branch holds) and asks; without a terminal
 * it removes only with --yes. A session still working or waiting is refused (stop it first).
 */
export async function discardCommand(args: CliArgs & { discardId?: string }, env: NodeJS.ProcessEnv = agentEnvironment()): Promise<number> {
  if (!args.discardId) throw new UsageError('discard needs a session: vibe-agent discard ID [--yes]');
  const entry = findBackgroundEntry(env, args.discardId);
  if (!entry.worktree) throw new UsageError(`${entry.name} did not run in a worktree; there is nothing to discard (its edits are in ${entry.workspace})`);
  const row = await fetchAgentRow(entry, await findServer(env));
  if (row.state === 'working' || row.state === 'needs you') {
    safeStderr.write(`vibe-agent discard: ${entry.name} is ${row.state}; stop it first (vibe-agent stop ${entry.name}). Nothing was removed.\n`);
    return EXIT.providerError;
  }
  const losses = worktreeLosses(entry.worktree, entry.included ?? [], entry.landed ? [entry.landed] : []);
  const said = losses.length
    ? [`Discarding ${entry.name} removes ${entry.worktree} and the branch ${entry.branch}, and loses:`, ...losses.map((loss) => `  ${loss}`)]
    : [`Discarding ${entry.name} removes ${entry.worktree} and the branch ${entry.branch}; nothing in it is unsaved (it is landed or on another branch).`];
  if (!args.yes) {
    if (!canAskYesNo()) {
      safeStderr.write(`${said.join('\n')}\nvibe-agent discard: not removed; run it in a terminal to be asked, or add --yes.\n`);
      return EXIT.providerError;
    }
    safeStdout.write(`${said.join('\n')}\n`);
    if (!(await askYesNo('Remove it?', { yes: 'removing', no: 'kept' }))) return EXIT.answered;
  } else safeStdout.write(`${said.join('\n')}\n`);
  removeWorktree(entry.repo, entry.worktree, entry.branch);
  addBackgroundEntry(env, { ...entry, discarded: new Date().toISOString() });
  safeStdout.write(`Removed ${entry.worktree}${entry.branch ? ` and the branch ${entry.branch}` : ''}.\n`);
  return EXIT.answered;
}
