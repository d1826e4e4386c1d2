import { spawnSync } from 'node:child_process';

export interface GitResult {
  ok: boolean;
  status: number | null;
  stdout: string;
  stderr: string;
}

/** git in `cwd`, synchronously (the land and worktree steps are sequential and short); with `timeoutMs`, killed past it (not ok, `error` says so). */
export function git(cwd: string, args: string[], options: { input?: string; timeoutMs?: number } = {}): GitResult {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, ...(options.input !== undefined ? { input: options.input } : {}), ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs, killSignal: 'SIGKILL' as const } : {}) });
  return { ok: result.status === 0, status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? String(result.error ?? '') };
}

/** git that must succeed: throws with its stderr otherwise. */
export function gitOrThrow(cwd: string, args: string[]): string {
  const result = git(cwd, args);
  if (!result.ok) throw new Error(`git ${args.join(' ')} failed in ${cwd}: ${result.stderr.trim() || `exit ${result.status}`}`);
  return result.stdout;
}

/** The bytes of `path` at `rev`, or undefined where it does not exist there. */
export function blobAt(cwd: string, rev: string, path: string): Buffer | undefined {
  const result = spawnSync('git', ['cat-file', 'blob', `${rev}:${path}`], { cwd, maxBuffer: 256 * 1024 * 1024 });
  return result.status === 0 ? result.stdout : undefined;
}

/** Author settings for commits made on the user's behalf when git has none configured. */
export function identityArgs(cwd: string): string[] {
  const named = git(cwd, ['config', 'user.email']).stdout.trim();
  return named ? [] : ['-c', 'user.name=vibe-agent', '-c', 'user.email=vibe-agent@localhost'];
}

/** Pathspecs leaving out what .worktreeinclude brought (a linked folder is not ignored as `node_modules/` would be). */
export function excludes(included: readonly string[]): string[] {
  return included.map((path) => `:(exclude)${path}`);
}
