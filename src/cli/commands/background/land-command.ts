import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { agentEnvironment } from '../../../secrets/held-secrets.js';
import type { AskTrust } from '../../../trust/trust-question.js';
import type { CliArgs } from '../../args/cli-args.js';
import { safeStderr, safeStdout } from '../../display/safe-output.js';
import { canAskYesNo, terminalTrust } from '../../setup/ask-yes-no.js';
import { EXIT } from '../../settings/exit-codes.js';
import { UsageError } from '../../settings/usage-error.js';
import { agentRow } from './agent-status.js';
import { addBackgroundEntry, findBackgroundEntry } from './background-registry.js';
import { git, gitOrThrow, identityArgs } from './git.js';
import { checksLine, landChecks } from './land-checks.js';
import { recordedLand } from './land-record.js';
import { chooseHunks, onlyFiles, type LandChoice } from './land-choice.js';
import { openPullRequest } from './land-pr.js';
import { changedFiles, planFiles, type FileStep } from './merge-into-tree.js';
import { findServer } from './server-address.js';
import { excludes } from './worktree.js';

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
 * `vibe-agent land ID [--check CMD]… [--no-check]`: the session's branch (its uncommitted work committed first)
 * rebased onto the checkout's current HEAD, the checks (given, else configured) run in its worktree, then its change merged
 * into the checkout's working tree (the user's uncommitted edits kept), as one rewind point.
 * Any refusal (running session, conflict, failing check) applies nothing.
 */
export async function landCommand(args: CliArgs & { land?: LandArgs }, env: NodeJS.ProcessEnv = agentEnvironment(), signal?: AbortSignal): Promise<number> {
  if (!args.land) throw new UsageError('land needs a session: vibe-agent land ID [--check "npm test"]');
  const entry = findBackgroundEntry(env, args.land.id);
  if (!entry.worktree || !entry.branch) throw new UsageError(`${entry.name} did not run in a worktree (start one with --bg -w NAME); its edits are in ${entry.workspace} already`);
  const row = await agentRow(entry, await findServer(env));
  if (row.state === 'working' || row.state === 'needs you') return refuse(`${entry.name} is ${row.state}; land it once it is done (or stop it: vibe-agent stop ${entry.name})`);
  const worktree = entry.worktree;
  // Decided (and any trust question asked) before anything is committed or rebased.
  const checks = await landChecks(args, { given: args.land.checks, none: args.land.noCheck, repo: entry.repo, env, ask: unlessInterrupted(terminalTrust(), signal) }).catch((error: unknown) => {
    if (error instanceof Interrupted) return undefined;
    throw error;
  });
  if (!checks) return interrupted('at the question about the project\'s checks. Nothing was committed, rebased or applied, and no answer was remembered.');
  if ('refused' in checks) return refuse(checks.refused);
  for (const note of checks.notes) safeStderr.write(`vibe-agent: ${note}\n`);

  const pending = git(worktree, ['status', '--porcelain', '--', '.', ...excludes(entry.included ?? [])]).stdout.trim();
  if (pending) {
    gitOrThrow(worktree, ['add', '-A', '--', '.', ...excludes(entry.included ?? [])]);
    gitOrThrow(worktree, [...identityArgs(worktree), 'commit', '-q', '-m', `vibe-agent: the work of session ${entry.id} (${entry.name})`]);
    safeStdout.write(`Committed ${entry.name}'s uncommitted work on ${entry.branch}.\n`);
  }
  const head = gitOrThrow(entry.repo, ['rev-parse', 'HEAD']).trim();
  const rebased = git(worktree, [...identityArgs(worktree), 'rebase', '-q', head]);
  if (!rebased.ok) {
    const conflicted = git(worktree, ['diff', '--name-only', '--diff-filter=U']).stdout.split('\n').filter(Boolean);
    git(worktree, ['rebase', '--abort']);
    return refuse(`${entry.branch} does not rebase onto ${head.slice(0, 12)} (HEAD of ${entry.repo}): conflicts in ${conflicted.join(', ') || 'files git did not name'}. Nothing was applied; the branch is as it was.`);
  }
  const tip = gitOrThrow(worktree, ['rev-parse', 'HEAD']).trim();
  safeStdout.write(`Rebased ${entry.branch} onto ${head.slice(0, 12)}.\n`);

  safeStdout.write(`${checksLine(checks)}\n`);
  for (const check of checks.commands) {
    safeStdout.write(`Checking in ${worktree}: ${check}\n`);
    const ran = spawnSync('sh', ['-c', check], { cwd: worktree, stdio: ['ignore', 'inherit', 'inherit'] });
    if (ran.status !== 0) return refuse(`the check "${check}" failed (${ran.status === null ? `signal ${ran.signal}` : `exit ${ran.status}`}). Nothing was applied.`);
    safeStdout.write(`  passed (exit 0)\n`);
  }

  if (args.land.pr) return openPullRequest({ ...entry, worktree, branch: entry.branch }, `${entry.name}: the work of a vibe-agent session`);

  const all = changedFiles(entry.repo, head, tip);
  let choice: LandChoice;
  if (args.land.only.length) choice = onlyFiles(all, args.land.only);
  else if (args.yes || !all.length) choice = { changes: all, everything: true };
  else if (canAskYesNo()) {
    const chosen = await chooseHunks(all, undefined, signal);
    if (!chosen) return interrupted(`at a hunk question. Nothing was applied; ${entry.branch} keeps all of its change.`);
    choice = chosen;
  } else return refuse(`without a terminal to choose hunks on, land everything with --yes or name files with --only PATH. Nothing was applied.`);
  const steps = planFiles(entry.repo, choice.changes);
  const conflicts = steps.filter((step): step is Extract<FileStep, { action: 'conflict' }> => step.action === 'conflict');
  if (conflicts.length) return refuse(`the change does not apply to your working tree:\n${conflicts.map((step) => `  ${step.path}: ${step.why}`).join('\n')}\nNothing was applied.`);
  if (!steps.length) {
    safeStdout.write(all.length ? 'Nothing was chosen; nothing was applied.\n' : `${entry.name} changed nothing against ${head.slice(0, 12)}; nothing to land.\n`);
    return EXIT.answered;
  }
  const description = `land ${entry.name} (${entry.branch} at ${tip.slice(0, 12)})`;
  const { sessionId } = await recordedLand(entry.repo, description, env, () => applySteps(entry.repo, steps));
  // Only a whole land saves the branch's work: with hunks left out, its worktree still holds unlanded work.
  if (choice.everything) addBackgroundEntry(env, { ...entry, landed: tip });
  const merged = steps.filter((step) => step.action === 'write' && step.merged).map((step) => step.path);
  safeStdout.write(
    [
      `Landed ${entry.name} into ${entry.repo}: ${steps.map((step) => `${step.action === 'remove' ? 'removed' : 'wrote'} ${step.path}`).join(', ')}.`,
      ...(merged.length ? [`Merged with your uncommitted edits: ${merged.join(', ')}.`] : []),
      ...(choice.everything ? [] : [`Part of the change was left out; it stays on ${entry.branch}.`]),
      `Nothing was committed or staged. Undo the whole land: vibe-agent rewind (the land is session ${sessionId}).`,
    ].join('\n') + '\n',
  );
  return EXIT.answered;
}

function applySteps(repo: string, steps: FileStep[]): void {
  for (const step of steps) {
    const file = join(repo, step.path);
    if (step.action === 'remove') rmSync(file, { force: true });
    else if (step.action === 'write') {
      mkdirSync(dirname(file), { recursive: true });
      const mode = existsSync(file) ? statSync(file).mode & 0o777 : 0o644;
      writeFileSync(`${file}.vibe-land`, step.content, { mode });
      renameSync(`${file}.vibe-land`, file);
    }
  }
}

class Interrupted extends Error {}

/** The trust question, except that Ctrl-C there is no answer at all: decideTrust remembers nothing. */
function unlessInterrupted(ask: AskTrust | undefined, signal: AbortSignal | undefined): AskTrust | undefined {
  if (!ask) return undefined;
  return async (question) => {
    const approved = await ask(question);
    if (signal?.aborted) throw new Interrupted();
    return approved;
  };
}

function interrupted(where: string): number {
  safeStderr.write(`vibe-agent land: stopped (Ctrl-C) ${where}\n`);
  return EXIT.aborted;
}

function refuse(text: string): number {
  safeStderr.write(`vibe-agent land: ${text}\n`);
  return EXIT.providerError;
}
