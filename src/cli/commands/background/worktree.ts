import { copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { basename, dirname, join, normalize, sep } from 'node:path';
import { homedir } from 'node:os';
import { excludes, git, gitOrThrow } from '../../../background/git.js';

export interface CreatedWorktree {
  name: string;
  path: string;
  branch: string;
  /** The commit it starts from (the repository's HEAD when it was made, or what --base named). */
  base: string;
  /** How the user named the base: `HEAD` or their --base REF. */
  baseRef: string;
  /** What .worktreeinclude brought over: linked folders, copied files. */
  included: Array<{ path: string; how: 'linked' | 'copied' }>;
  /** Lines of .worktreeinclude not followed, and why. */
  skipped: string[];
}

/** The top folder of the git repository holding `cwd`; a clear error outside one. */
export function repositoryRoot(cwd: string): string {
  const result = git(cwd, ['rev-parse', '--show-toplevel']);
  if (!result.ok) throw new Error(`${cwd} is not in a git repository; --worktree needs one`);
  return result.stdout.trim();
}

/**
 * A new `git worktree` for a session, on a new branch `vibe/NAME` from `baseRef` (default HEAD) resolved
 * now, never cached, kept under the state folder. With no name one is made up from the task. Ignored
 * files a build needs come over only as the repository's `.worktreeinclude` names them: folders linked,
 * files copied.
 */
export function createWorktree(repo: string, options: { name?: string; baseRef?: string; task: string }, env: NodeJS.ProcessEnv): CreatedWorktree {
  const baseRef = options.baseRef ?? 'HEAD';
  const resolved = git(repo, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${baseRef}^{commit}`]);
  if (!resolved.ok) throw new Error(`--base ${baseRef} is not a commit in ${repo} (a branch, tag or commit id is)`);
  const base = resolved.stdout.trim();
  // The parser checked a given name's shape (parse-command-line: WORKTREE_NAME).
  const name = options.name || freeName(repo, options.task, env);
  const branch = `vibe/${name}`;
  if (git(repo, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]).ok) throw new Error(`the branch ${branch} exists already; choose another name`);
  const path = join(worktreesDir(repo, env), name);
  if (existsSync(path)) throw new Error(`${path} exists already; choose another name`);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  gitOrThrow(repo, ['worktree', 'add', '-b', branch, path, base]);
  return { name, path, branch, base, baseRef, ...bringIncluded(repo, path) };
}

/** A name from the task's first words and four random hex digits (`fix-the-parser-3f2a`), free as a branch and a folder. */
export function freeName(repo: string, task: string, env: NodeJS.ProcessEnv): string {
  const words = task.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const stem = words.slice(0, 3).join('-').slice(0, 32).replace(/-+$/, '') || 'task';
  for (;;) {
    const name = `${stem}-${randomBytes(2).toString('hex')}`;
    if (!git(repo, ['rev-parse', '--verify', '--quiet', `refs/heads/vibe/${name}`]).ok && !existsSync(join(worktreesDir(repo, env), name))) return name;
  }
}

/**
 * Under the XDG state folder, not the data folder: the agent's own data folder is a protected path
 * (an edit there is always asked), and a session must be free to edit its worktree as its mode allows.
 */
export function worktreesDir(repo: string, env: NodeJS.ProcessEnv): string {
  const hash = createHash('sha256').update(repo).digest('hex').slice(0, 10);
  const state = env.XDG_STATE_HOME || join(env.HOME || homedir(), '.local', 'state');
  return join(state, 'vibe-agent', 'worktrees', `${basename(repo)}-${hash}`);
}

function bringIncluded(repo: string, worktree: string): Pick<CreatedWorktree, 'included' | 'skipped'> {
  const included: CreatedWorktree['included'] = [];
  const skipped: string[] = [];
  let text: string;
  try {
    text = readFileSync(join(repo, '.worktreeinclude'), 'utf8');
  } catch {
    return { included, skipped };
  }
  for (const raw of text.split('\n')) {
    const line = raw.trim().replace(/\/+$/, '');
    if (!line || line.startsWith('#')) continue;
    const relative = normalize(line);
    if (relative.startsWith('..') || relative.startsWith(sep) || relative.includes(`${sep}..${sep}`)) {
      skipped.push(`${line} (outside the repository)`);
      continue;
    }
    const source = join(repo, relative);
    if (!existsSync(source)) {
      skipped.push(`${line} (not there)`);
      continue;
    }
    // Only what git ignores: tracked files are in the worktree already, and untracked work is not copied around.
    if (!git(repo, ['check-ignore', '-q', relative]).ok) {
      skipped.push(`${line} (not ignored by git)`);
      continue;
    }
    const target = join(worktree, relative);
    mkdirSync(dirname(target), { recursive: true });
    if (lstatSync(source).isDirectory()) {
      symlinkSync(source, target, 'dir');
      included.push({ path: relative, how: 'linked' });
    } else {
      copyFileSync(source, target);
      included.push({ path: relative, how: 'copied' });
    }
  }
  return { included, skipped };
}

/** What removing the worktree would lose: uncommitted changes and commits no other branch (nor `saved`, a landed commit) holds. Empty: nothing. */
export function worktreeWork(worktree: string, included: readonly string[] = [], saved: readonly string[] = []): string[] {
  if (!existsSync(worktree)) return [];
  const lost: string[] = [];
  const status = git(worktree, ['status', '--porcelain', '--', '.', ...excludes(included)]);
  if (!status.ok) return [`its state could not be read (${status.stderr.trim()})`];
  const changed = status.stdout.split('\n').filter(Boolean).length;
  if (changed) lost.push(`${changed} uncommitted change${changed === 1 ? '' : 's'}`);
  const branch = git(worktree, ['symbolic-ref', '--quiet', 'HEAD']).stdout.trim();
  const unique = git(worktree, ['rev-list', '--count', 'HEAD', '--not', ...otherRefs(worktree, branch), ...saved]);
  const commits = Number(unique.stdout.trim() || '0');
  if (!unique.ok) lost.push('its commits could not be checked');
  else if (commits) lost.push(`${commits} commit${commits === 1 ? '' : 's'} on no other branch`);
  return lost;
}

function otherRefs(worktree: string, own: string): string[] {
  return git(worktree, ['for-each-ref', '--format=%(refname)', 'refs/heads', 'refs/remotes']).stdout.split('\n').filter((ref) => ref && ref !== own);
}

/** Removes a worktree and its branch only when nothing would be lost; otherwise says what is there. */
export function removeWorktreeIfSafe(repo: string, worktree: string, branch: string | undefined, included: readonly string[] = [], saved: readonly string[] = []): { removed: boolean; kept?: string[] } {
  const work = worktreeWork(worktree, included, saved);
  if (work.length) return { removed: false, kept: work };
  removeWorktree(repo, worktree, branch);
  return { removed: true };
}

/** Removes a worktree and its branch, whatever they hold: only after the user saw worktreeLosses and agreed. */
export function removeWorktree(repo: string, worktree: string, branch: string | undefined): void {
  // --force for what .worktreeinclude put there, and for the uncommitted work the user agreed to lose.
  if (existsSync(worktree)) gitOrThrow(repo, ['worktree', 'remove', '--force', worktree]);
  else git(repo, ['worktree', 'prune']);
  if (branch) git(repo, ['branch', '-D', branch]);
}

/** What removing the worktree loses, one line each: every uncommitted file (git status) and every commit no other branch holds. */
export function worktreeLosses(worktree: string, included: readonly string[] = [], saved: readonly string[] = []): string[] {
  if (!existsSync(worktree)) return [];
  const status = git(worktree, ['status', '--porcelain', '--untracked-files=all', '--', '.', ...excludes(included)]);
  const files = status.stdout.split('\n').filter(Boolean).map((line) => `uncommitted: ${line.slice(3)} (${describeStatus(line.slice(0, 2))})`);
  const branch = git(worktree, ['symbolic-ref', '--quiet', 'HEAD']).stdout.trim();
  const log = git(worktree, ['log', '--format=%h %s', 'HEAD', '--not', ...otherRefs(worktree, branch), ...saved]);
  const commits = log.stdout.split('\n').filter(Boolean).map((line) => `commit on no other branch: ${line}`);
  return [...files, ...commits];
}

function describeStatus(code: string): string {
  if (code === '??') return 'new file';
  if (code.includes('D')) return 'deleted';
  if (code.includes('A')) return 'added';
  return 'changed';
}
