import { isAbsolute, relative, resolve } from 'node:path';
import type { Tool } from '../contracts/tool.js';
import { userConfigDir } from '../workspace/agent-dirs.js';
import { userDataDir } from '../session/paths.js';
import { realpathAllowingMissing } from './permission-rule.js';

/**
 * Folders whose files decide what the agent or git may do next, asked about even in auto-edit and
 * after an "always" for edits: `.git/` (hooks, core.fsmonitor run on the next `git status`) and a
 * project's `.vibe-agent/` (its config, memory, skills), wherever they appear in a path.
 */
const PROTECTED_FOLDERS = new Set(['.git', '.vibe-agent']);

/**
 * The agent's own folders outside any project: the user's config (config.json with permissionMode,
 * memory) and data (sessions). A model that could edit them unasked could loosen its own leash.
 */
export function agentHomeDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  return [userConfigDir(env), userDataDir(env)];
}

/** Whether a call's file-path subject lands in a protected folder, as written or where it really leads. */
export function touchesProtectedPath(tool: Pick<Tool, 'permission'>, args: unknown, workspace: string, homes: readonly string[]): boolean {
  const subject = tool.permission.subject?.(args);
  if (subject?.kind !== 'file-path') return false;
  return [subject.value, ...(subject.also ?? [])].some((path) => pathIsProtected(path, workspace, homes));
}

function pathIsProtected(path: string, workspace: string, homes: readonly string[]): boolean {
  const lexical = resolve(workspace, path);
  const targets = [lexical, realpathAllowingMissing(lexical)];
  const inWorkspace = targets.map((target) => relative(realpathAllowingMissing(workspace), target)).concat(relative(workspace, lexical));
  if (inWorkspace.some((rel) => rel.split(/[\\/]/).some((segment) => PROTECTED_FOLDERS.has(segment.toLowerCase())))) return true;
  return homes.some((home) => {
    const real = realpathAllowingMissing(home);
    return targets.some((target) => [home, real].some((dir) => within(dir, target)));
  });
}

function within(dir: string, path: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
