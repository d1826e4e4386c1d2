import { homedir } from 'node:os';
import { join } from 'node:path';

/** `$XDG_CONFIG_HOME/vibe-agent`, default `~/.config/vibe-agent` (where config.json also lives). */
export function userConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'vibe-agent');
}

/** The user's own instructions for every project. */
export function userAgentsPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(userConfigDir(env), 'AGENTS.md');
}

export type MemoryScope = 'project' | 'user';

/** Where `remember` writes: the project's `.vibe-agent/memory.md` or the user's `memory.md`. */
export function memoryPath(scope: MemoryScope, workspace: string, env: NodeJS.ProcessEnv = process.env): string {
  return scope === 'user' ? join(userConfigDir(env), 'memory.md') : join(workspace, '.vibe-agent', 'memory.md');
}

/** A path as shown to the model and the user: `~/…` under the home directory. */
export function displayPath(path: string, env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HOME || homedir();
  return home && (path === home || path.startsWith(`${home}/`)) ? `~${path.slice(home.length)}` : path;
}
