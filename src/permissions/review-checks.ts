import { requireOnFirstUse } from '../contracts/require-on-first-use.js';
import type { SideItem } from '../side-model/side-request.js';
import { confinedEntries } from '../workspace/confined-entries.js';
import { insideWorkspacePaths } from './persistence-paths.js';

// Loaded when a reviewer first asks for a check: the permission policy is on every run's start-up path.
const childProcess = requireOnFirstUse<typeof import('node:child_process')>('node:child_process');

/** The read-only checks a reviewer may ask for before it answers; nothing else is ever run. */
export const REVIEW_CHECKS = ['git_status', 'git_diff_stat', 'list:PATH'] as const;

const MAX_OUTPUT = 4000;
/**
 * Git is told to run nothing a repository's config could name: no fsmonitor, no hooks, no
 * external diff or text conversion, no pager, no optional locks (a status that writes the index).
 */
const GIT_SAFE = ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', '-c', 'core.pager=cat', '-c', 'diff.external=', '--no-optional-locks'];

/** Runs the named checks in the workspace; each comes back as one "check" item (an unknown name says so). */
export async function runReviewChecks(names: readonly string[], workspace: string): Promise<SideItem[]> {
  const items: SideItem[] = [];
  for (const name of names) items.push({ kind: 'check', name, output: await runOne(name, workspace) });
  return items;
}

async function runOne(name: string, workspace: string): Promise<string> {
  if (name === 'git_status') return git(['status', '--short', '--branch', '--untracked-files=normal'], workspace);
  if (name === 'git_diff_stat') return git(['diff', '--stat', '--no-ext-diff', '--no-textconv', 'HEAD'], workspace);
  if (name.startsWith('list:')) return list(name.slice(5) || '.', workspace);
  return `unknown check; the checks are ${REVIEW_CHECKS.join(', ')}`;
}

function git(args: string[], workspace: string): Promise<string> {
  return new Promise((done) => {
    childProcess().execFile('git', [...GIT_SAFE, ...args], { cwd: workspace, timeout: 10_000, maxBuffer: 1 << 20, env: { PATH: process.env.PATH ?? '', GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_NOSYSTEM: '1' } }, (error, stdout, stderr) => {
      done(bounded(error ? `failed: ${(stderr || error.message).trim()}` : stdout));
    });
  });
}

function list(path: string, workspace: string): string {
  if (!insideWorkspacePaths([path], workspace) && path !== '.') return 'refused: the folder is outside the workspace';
  const names = confinedEntries(workspace, path).map((entry) => (entry.isDir ? `${entry.name}/` : entry.name)).sort();
  return bounded(names.join('\n'));
}

function bounded(text: string): string {
  return text.length <= MAX_OUTPUT ? text : `${text.slice(0, MAX_OUTPUT)}\n…[cut]`;
}
