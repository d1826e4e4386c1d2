import { spawnSync } from 'node:child_process';
import { safeStderr, safeStdout } from '../../display/safe-output.js';
import { EXIT } from '../../settings/exit-codes.js';
import type { BackgroundEntry } from './background-registry.js';
import { git } from './git.js';

/**
 * `land ID --pr`: pushes the session's (rebased, checked) branch to the checkout's remote and opens a pull
 * request with `gh` where it is installed; without gh, or with no remote, it says what to do instead.
 * Nothing is written into the checkout.
 */
export function openPullRequest(entry: BackgroundEntry & { worktree: string; branch: string }, title: string): number {
  const remote = pushRemote(entry.repo);
  if (!remote) {
    safeStderr.write(`vibe-agent land: ${entry.repo} has no git remote to push ${entry.branch} to (git remote add origin URL first). Nothing was pushed.\n`);
    return EXIT.providerError;
  }
  const pushed = git(entry.worktree, ['push', '--set-upstream', remote, `${entry.branch}:${entry.branch}`]);
  if (!pushed.ok) {
    safeStderr.write(`vibe-agent land: git push ${remote} ${entry.branch} failed: ${pushed.stderr.trim() || `exit ${pushed.status}`}\n`);
    return EXIT.providerError;
  }
  safeStdout.write(`Pushed ${entry.branch} to ${remote}.\n`);
  const gh = spawnSync('gh', ['pr', 'create', '--head', entry.branch, '--title', title, '--body', `The work of vibe-agent session ${entry.id} (${entry.name}).`], { cwd: entry.worktree, encoding: 'utf8' });
  if ((gh.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    safeStdout.write(`gh (the GitHub CLI) is not installed, so no pull request was opened: open one for ${entry.branch} on ${remoteUrl(entry.repo, remote)}.\n`);
    return EXIT.answered;
  }
  if (gh.status !== 0) {
    safeStderr.write(`vibe-agent land: the branch is pushed, but gh pr create failed: ${(gh.stderr || gh.stdout).trim() || `exit ${gh.status}`}\n`);
    return EXIT.providerError;
  }
  safeStdout.write(`Opened a pull request: ${gh.stdout.trim()}\n`);
  return EXIT.answered;
}

/** The checkout's current branch's remote, else `origin`, else its only remote. */
function pushRemote(repo: string): string | undefined {
  const remotes = git(repo, ['remote']).stdout.split('\n').filter(Boolean);
  const current = git(repo, ['symbolic-ref', '--quiet', '--short', 'HEAD']).stdout.trim();
  const tracked = current ? git(repo, ['config', `branch.${current}.remote`]).stdout.trim() : '';
  if (tracked && remotes.includes(tracked)) return tracked;
  if (remotes.includes('origin')) return 'origin';
  return remotes.length === 1 ? remotes[0] : undefined;
}

const remoteUrl = (repo: string, remote: string) => git(repo, ['remote', 'get-url', remote]).stdout.trim() || remote;
