import { join } from 'node:path';

export interface HookDirs {
  gemini: string;
  codex: string;
  claude: string;
}

/**
 * The files of Claude Code's, Gemini CLI's and Codex's that may hold hooks, in one directory level
 * (the home or the workspace). `settings.local.json` is Claude Code's per-person project file.
 */
export function foreignHookFiles(dirs: HookDirs, level: 'user' | 'project') {
  return {
    claude: join(dirs.claude, 'settings.json'),
    ...(level === 'project' ? { claudeLocal: join(dirs.claude, 'settings.local.json') } : {}),
    gemini: join(dirs.gemini, 'settings.json'),
    codexJson: join(dirs.codex, 'hooks.json'),
    codexToml: join(dirs.codex, 'config.toml'),
  };
}

/** The directories foreignHookFiles looks in: the user's (home, CODEX_HOME) and the workspace's. */
export function foreignHookDirs(workspace: string, env: NodeJS.ProcessEnv, home: string): { user: HookDirs; project: HookDirs } {
  return {
    user: { gemini: join(home, '.gemini'), codex: env.CODEX_HOME || join(home, '.codex'), claude: join(home, '.claude') },
    project: { gemini: join(workspace, '.gemini'), codex: join(workspace, '.codex'), claude: join(workspace, '.claude') },
  };
}
