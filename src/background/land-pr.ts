import { spawnSync } from 'node:child_process';
import type { BackgroundEntry } from './background-registry.js';
import { git } from './git.js';

export type PullRequestOutcome =
  | { ok: true; remote: string; pushed: string; text: string; url?: string }
  | { ok: false; pushed?: string; reason: string };

/**
 * `land --pr`: pushes the session's (rebased, checked) branch to the checkout's remote and opens a pull
 * request with `gh` where it is installed; without gh, or with no remote, it says what to do instead.
 * Nothing is written into the checkout.
 */
export function openPullRequest(entry: BackgroundEntry & { worktree: string; branch: string }, title: string): PullRequestOutcome {
  const remote = pushRemote(entry.repo);
  if (!remote) return { ok: false, reason: `${entry.repo} has no git remote to push ${entry.branch} to (git remote add origin URL first). Nothing was pushed.` };
  const pushed = git(entry.worktree, ['push', '--set-upstream', remote, `${entry.branch}:${entry.branch}`]);
  if (!pushed.ok) return { ok: false, reason: `git push ${remote} ${entry.branch} failed: ${pushed.stderr.trim() || `exit ${pushed.status}`}` };
  const said = `Pushed ${entry.branch} to ${remote}.`;
  const gh = spawnSync('gh', ['pr', 'create', '--head', entry.branch, '--title', title, '--body', `The work of vibe-agent session ${entry.id} (${entry.name}).`], { cwd: entry.worktree, encoding: 'utf8' });
  if ((gh.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
    return { ok: true, remote, pushed: said, text: `gh (the GitHub CLI) is not installed, so no pull request was opened: open one for ${entry.branch} on ${remoteUrl(entry.repo, remote)}.` };
  }
  if (gh.status !== 0) return { ok: false, pushed: said, reason: `the branch is pushed, but gh pr create failed: ${(gh.stderr || gh.stdout).trim() || `exit ${gh.status}`}` };
  const url = gh.stdout.trim();
  return { ok: true, remote, pushed: said, text: `Opened a pull request: ${url}`, url };
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
