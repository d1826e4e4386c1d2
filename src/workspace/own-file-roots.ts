import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where a user-level file (our config dir, ~/.gemini, ~/.codex, ~/.claude) may really be: the home
 * directory and the config folders the environment names, which may lie outside it.
 */
export function userFileRoots(env: NodeJS.ProcessEnv = process.env): string[] {
  const home = env.HOME || homedir();
  return [home, ...(env.XDG_CONFIG_HOME ? [join(env.XDG_CONFIG_HOME, 'vibe-agent')] : []), ...(env.CODEX_HOME ? [env.CODEX_HOME] : [])];
}
