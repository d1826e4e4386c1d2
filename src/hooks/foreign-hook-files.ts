import { join } from 'node:path';

/** The files of Gemini CLI's and Codex's that may hold hooks, in one directory level (the home or the workspace). */
export function foreignHookFiles(geminiDir: string, codexDir: string) {
  return { gemini: join(geminiDir, 'settings.json'), codexJson: join(codexDir, 'hooks.json'), codexToml: join(codexDir, 'config.toml') };
}

/** The directories foreignHookFiles looks in: the user's (home, CODEX_HOME) and the workspace's. */
export function foreignHookDirs(workspace: string, env: NodeJS.ProcessEnv, home: string) {
  return {
    user: { gemini: join(home, '.gemini'), codex: env.CODEX_HOME || join(home, '.codex') },
    project: { gemini: join(workspace, '.gemini'), codex: join(workspace, '.codex') },
  };
}
