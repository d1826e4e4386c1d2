import { landSession } from '../../../background/land-session.js';
import type { LandNote, LandResult } from '../../../background/land-types.js';
import { agentEnvironment } from '../../../secrets/held-secrets.js';
import type { CliArgs } from '../../args/cli-args.js';
import { safeStderr, safeStdout } from '../../display/safe-output.js';
import { canAskYesNo, terminalTrust } from '../../setup/ask-yes-no.js';
import { EXIT } from '../../settings/exit-codes.js';
import { UsageError } from '../../settings/usage-error.js';
import { fetchAgentRow } from './agent-status.js';
import { findBackgroundEntry } from './background-registry.js';
import { configuredChecks, unapprovedChecksReason } from './land-checks.js';
import { askHunkOnTerminal } from './land-choice.js';
import { findServer } from './server-address.js';

export interface LandArgs {
  id: string;
  /** `--check CMD`: run instead of the configured `landChecks`. */
  checks: string[];
  /** `--no-check`: run none. */
  noCheck: boolean;
  /** `--only PATH`: land only these files (whole). */
  only: string[];
  /** `--pr`: push the branch and open a pull request instead of merging into the checkout. */
  pr: boolean;
}

/**
 * `vibe-agent land ID [--check CMD]… [--no-check]`: landSession (src/background) on a terminal — its
 * progress printed as it comes, the trust and hunk questions asked with one key, its result said and
 * turned into the exit code. Any refusal (running session, conflict, failing check) applies nothing.
 */
export async function landCommand(args: CliArgs & { land?: LandArgs }, env: NodeJS.ProcessEnv = agentEnvironment(), signal?: AbortSignal): Promise<number> {
  if (!args.land) throw new UsageError('land needs a session: vibe-agent land ID [--check "npm test"]');
  const land = args.land;
  const entry = findBackgroundEntry(env, land.id);
  if (!entry.worktree || !entry.branch) throw new UsageError(`${entry.name} did not run in a worktree (start one with --bg -w NAME); its edits are in ${entry.workspace} already`);
  const row = await fetchAgentRow(entry, await findServer(env));
  const askTrust = terminalTrust();
  const result = await landSession({
    entry,
    state: row.state,
    checks: { given: land.checks, none: land.noCheck, configured: () => configuredChecks(args, entry.repo, env) },
    only: land.only,
    whole: args.yes === true,
    pr: land.pr,
    env,
    ...(askTrust ? { askTrust } : {}),
    ...(canAskYesNo() ? { askHunk: askHunkOnTerminal() } : {}),
    onNote: show,
    ...(signal ? { signal } : {}),
  });
  return said(result);
}

function show(note: LandNote): void {
  if (note.type === 'check_output') (note.stream === 'stdout' ? process.stdout : process.stderr).write(note.chunk);
  else if (note.type === 'warning') safeStderr.write(`vibe-agent: ${note.text}\n`);
  else safeStdout.write(`${note.text}\n`);
}

function said(result: LandResult): number {
  switch (result.outcome) {
    case 'landed':
    case 'nothing':
    case 'pushed':
      safeStdout.write(`${result.text}\n`);
      return EXIT.answered;
    case 'interrupted':
      safeStderr.write(`vibe-agent land: stopped (Ctrl-C) ${result.where}\n`);
      return EXIT.aborted;
    case 'refused':
      safeStderr.write(`vibe-agent land: ${result.unapprovedChecks ? unapprovedChecksReason(result.unapprovedChecks) : result.reason}\n`);
      return EXIT.providerError;
    case 'check_failed':
      safeStderr.write(`vibe-agent land: ${result.reason}\n`);
      return EXIT.providerError;
  }
}
