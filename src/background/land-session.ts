import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AskTrust } from '../trust/trust-question.js';
import { addBackgroundEntry } from './background-registry.js';
import { excludes, git, gitOrThrow, identityArgs } from './git.js';
import { checksLine, decideLandChecks } from './land-checks.js';
import { chooseHunks, onlyFiles, type LandChoice } from './land-choice.js';
import { openPullRequest } from './land-pr.js';
import { takeLandLock } from './land-lock.js';
import { recordedLand } from './land-record.js';
import type { LandNote, LandRequest, LandResult } from './land-types.js';
import { changedFiles, planFiles, type FileStep } from './merge-into-tree.js';

/** What a land keeps of a failing check's output for its result: the last part, where the failure is. */
const OUTPUT_KEPT = 64 * 1024;

/**
 * Lands a background session's worktree into its checkout: its uncommitted work committed on its
 * branch, the branch rebased onto the checkout's current HEAD, the checks run in the worktree, then the
 * chosen change merged into the checkout's working tree (the user's uncommitted edits kept) as one
 * rewind point. Any refusal (a running session, unapproved project checks, a conflict, a failing
 * check) applies nothing. No terminal: questions go to `askTrust` / `askHunk`, progress to `onNote`.
 */
export async function landSession(request: LandRequest): Promise<LandResult> {
  const { entry } = request;
  if (!entry.worktree || !entry.branch) return refused(`${entry.name} did not run in a worktree (start one with --bg -w NAME); its edits are in ${entry.workspace} already`);
  if (request.state === 'working' || request.state === 'needs you') return refused(`${entry.name} is ${request.state}; land it once it is done (or stop it: vibe-agent stop ${entry.name})`);
  const lock = takeLandLock(entry.worktree);
  if ('heldBy' in lock) return refused(`another land of ${entry.name} is under way (${lock.heldBy === undefined ? 'its process could not be named: the lock changed hands on every look' : `process ${lock.heldBy}`}); land it once that one has ended. Nothing was applied.`);
  try {
    return await landLocked(request, entry.worktree, entry.branch);
  } finally {
    lock.release();
  }
}

async function landLocked(request: LandRequest, worktree: string, branch: string): Promise<LandResult> {
  const { entry, env, signal } = request;
  const note = (one: LandNote) => request.onNote?.(one);
  // Decided (and any trust question asked) before anything is committed or rebased.
  const checks = await decideLandChecks(request.checks, entry.repo, env, unlessInterrupted(request.askTrust, signal)).catch((error: unknown) => {
    if (error instanceof Interrupted) return undefined;
    throw error;
  });
  if (!checks) return { outcome: 'interrupted', where: 'at the question about the project\'s checks. Nothing was committed, rebased or applied, and no answer was remembered.' };
  if ('unapproved' in checks) {
    const { file, commands } = checks.unapproved;
    return { outcome: 'refused', reason: `${file} names land checks (${commands.join('; ')}), and they run only once you approve them for this workspace. Nothing was applied.`, unapprovedChecks: checks.unapproved };
  }
  for (const text of checks.notes) note({ type: 'warning', text });

  const pending = git(worktree, ['status', '--porcelain', '--', '.', ...excludes(entry.included ?? [])]).stdout.trim();
  if (pending) {
    gitOrThrow(worktree, ['add', '-A', '--', '.', ...excludes(entry.included ?? [])]);
    gitOrThrow(worktree, [...identityArgs(worktree), 'commit', '-q', '-m', `vibe-agent: the work of session ${entry.id} (${entry.name})`]);
    note({ type: 'committed', text: `Committed ${entry.name}'s uncommitted work on ${branch}.` });
  }
  const head = gitOrThrow(entry.repo, ['rev-parse', 'HEAD']).trim();
  const rebased = git(worktree, [...identityArgs(worktree), 'rebase', '-q', head]);
  if (!rebased.ok) {
    const conflicted = git(worktree, ['diff', '--name-only', '--diff-filter=U']).stdout.split('\n').filter(Boolean);
    git(worktree, ['rebase', '--abort']);
    return refused(`${branch} does not rebase onto ${head.slice(0, 12)} (HEAD of ${entry.repo}): conflicts in ${conflicted.join(', ') || 'files git did not name'}. Nothing was applied; the branch is as it was.`);
  }
  const tip = gitOrThrow(worktree, ['rev-parse', 'HEAD']).trim();
  note({ type: 'rebased', onto: head, text: `Rebased ${branch} onto ${head.slice(0, 12)}.` });

  note({ type: 'checks', commands: checks.commands, from: checks.from, text: checksLine(checks) });
  for (const check of checks.commands) {
    note({ type: 'check_start', command: check, text: `Checking in ${worktree}: ${check}` });
    const ran = await runCheck(check, worktree, (stream, chunk) => note({ type: 'check_output', stream, chunk }));
    if (ran.exitCode !== 0) {
      const reason = `the check "${check}" failed (${ran.exitCode === null ? `signal ${ran.signal}` : `exit ${ran.exitCode}`}). Nothing was applied.`;
      return { outcome: 'check_failed', check, exitCode: ran.exitCode, signal: ran.signal, output: ran.output, reason };
    }
    note({ type: 'check_passed', command: check, text: '  passed (exit 0)' });
  }

  if (request.pr) {
    const opened = openPullRequest({ ...entry, worktree, branch }, `${entry.name}: the work of a vibe-agent session`);
    if (opened.pushed) note({ type: 'pushed', text: opened.pushed });
    return opened.ok ? { outcome: 'pushed', remote: opened.remote, ...(opened.url ? { url: opened.url } : {}), text: opened.text } : refused(opened.reason);
  }

  const all = changedFiles(entry.repo, head, tip);
  let choice: LandChoice;
  if (request.only?.length) {
    try {
      choice = onlyFiles(all, request.only);
    } catch (error) {
      return refused(`${(error as Error).message}. Nothing was applied.`);
    }
  } else if (request.whole || !all.length) choice = { changes: all, everything: true };
  else if (request.askHunk) {
    const chosen = await chooseHunks(all, request.askHunk, signal);
    if (!chosen) return { outcome: 'interrupted', where: `at a hunk question. Nothing was applied; ${branch} keeps all of its change.` };
    choice = chosen;
  } else return refused(`without a terminal to choose hunks on, land everything with --yes or name files with --only PATH. Nothing was applied.`);
  const steps = planFiles(entry.repo, choice.changes);
  const conflicts = steps.filter((step): step is Extract<FileStep, { action: 'conflict' }> => step.action === 'conflict');
  if (conflicts.length) return refused(`the change does not apply to your working tree:\n${conflicts.map((step) => `  ${step.path}: ${step.why}`).join('\n')}\nNothing was applied.`);
  if (!steps.length) return { outcome: 'nothing', text: all.length ? 'Nothing was chosen; nothing was applied.' : `${entry.name} changed nothing against ${head.slice(0, 12)}; nothing to land.` };

  const description = `land ${entry.name} (${branch} at ${tip.slice(0, 12)})`;
  const { sessionId } = await recordedLand(entry.repo, description, env, () => applySteps(entry.repo, steps));
  // Only a whole land saves the branch's work: with hunks left out, its worktree still holds unlanded work.
  if (choice.everything) addBackgroundEntry(env, { ...entry, landed: tip });
  const files = steps.flatMap((step) => (step.action === 'conflict' ? [] : [{ path: step.path, action: step.action === 'remove' ? ('removed' as const) : ('wrote' as const), merged: step.action === 'write' && step.merged }]));
  const merged = files.filter((file) => file.merged).map((file) => file.path);
  const text = [
    `Landed ${entry.name} into ${entry.repo}: ${files.map((file) => `${file.action} ${file.path}`).join(', ')}.`,
    ...(merged.length ? [`Merged with your uncommitted edits: ${merged.join(', ')}.`] : []),
    ...(choice.everything ? [] : [`Part of the change was left out; it stays on ${branch}.`]),
    `Nothing was committed or staged. Undo the whole land: vibe-agent rewind (the land is session ${sessionId}).`,
  ].join('\n');
  return { outcome: 'landed', files, partial: !choice.everything, branch, tip, rewindSession: sessionId, text };
}

const refused = (reason: string): LandResult => ({ outcome: 'refused', reason });

/** `sh -c CHECK` in the worktree, its output handed on as it comes; the last part of it kept. */
function runCheck(check: string, cwd: string, output: (stream: 'stdout' | 'stderr', chunk: Buffer) => void): Promise<{ exitCode: number | null; signal: string | null; output: string }> {
  return new Promise((resolve) => {
    let kept = Buffer.alloc(0);
    const keep = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
      output(stream, chunk);
      kept = Buffer.concat([kept, chunk]);
      if (kept.length > OUTPUT_KEPT) kept = kept.subarray(kept.length - OUTPUT_KEPT);
    };
    const child = spawn('sh', ['-c', check], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', keep('stdout'));
    child.stderr.on('data', keep('stderr'));
    child.on('error', (error) => resolve({ exitCode: null, signal: null, output: String(error) }));
    child.on('close', (exitCode, signal) => resolve({ exitCode, signal, output: kept.toString('utf8') }));
  });
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

/** The trust question, except that an abort there is no answer at all: decideTrust remembers nothing. */
function unlessInterrupted(ask: AskTrust | undefined, signal: AbortSignal | undefined): AskTrust | undefined {
  if (!ask) return undefined;
  return async (question) => {
    const approved = await ask(question);
    if (signal?.aborted) throw new Interrupted();
    return approved;
  };
}
