import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { userConfigDir } from '../memory/memory-paths.js';
import { realOrSame } from '../session/paths.js';

export type Scope = 'project' | 'user';

export interface SearchRoot {
  dir: string;
  scope: Scope;
  /** What a project root's files must stay inside (its project directory); the dir itself for user roots. */
  base: string;
}

/**
 * The workspace, then each parent up to the repository root (the nearest one holding .git); just
 * the workspace when it is not inside a repository. Nearest first: nearer folders win on a name.
 */
export function projectDirs(workspace: string): string[] {
  const start = realOrSame(workspace);
  const dirs: string[] = [];
  for (let dir = start; ; dir = dirname(dir)) {
    dirs.push(dir);
    if (statSync(join(dir, '.git'), { throwIfNoEntry: false })) return dirs;
    if (dirname(dir) === dir) return [start];
  }
}

/** `sub` (e.g. ".claude/skills") under each project directory in order, then the user-level ones. */
export function searchRoots(workspace: string, projectSubdirs: readonly string[], userDirs: readonly string[]): SearchRoot[] {
  return [
    ...projectDirs(workspace).flatMap((dir) => projectSubdirs.map((sub) => ({ dir: join(dir, sub), scope: 'project' as const, base: dir }))),
    ...userDirs.map((dir) => ({ dir, scope: 'user' as const, base: dir })),
  ];
}

/** The user's config dir (`~/.config/vibe-agent`) joined with `name`. */
export function userConfigSubdir(name: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(userConfigDir(env), name);
}
