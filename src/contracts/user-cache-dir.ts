import { homedir } from 'node:os';
import { join } from 'node:path';

/** `$XDG_CACHE_HOME/vibe-agent`, default `~/.cache/vibe-agent`: what can be rebuilt (the docs index, the price cache). */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'vibe-agent');
}
