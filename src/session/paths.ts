import { createHash, randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';

/** `$XDG_DATA_HOME/vibe-agent`, default `~/.local/share/vibe-agent`. */
export function userDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_DATA_HOME || join(env.HOME || homedir(), '.local', 'share'), 'vibe-agent');
}

/**
 * A directory-safe name for a workspace: a readable slug of its folder name plus a short hash of
 * its real path, so two checkouts named `app` never share sessions and a symlinked path shares them.
 */
export function workspaceKey(workspace: string): string {
  const real = realOrSame(workspace);
  const slug = basename(real).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'root';
  const hash = createHash('sha256').update(real).digest('hex').slice(0, 10);
  return `${slug}-${hash}`;
}

export function sessionsDir(workspace: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(userDataDir(env), 'sessions', workspaceKey(workspace));
}

/** Readable, and telling when: `20261202-202114-3fa9` (UTC start time, then 4 random hex digits). */
export function newSessionId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${randomBytes(2).toString('hex')}`;
}

/** What `--resume` takes as an id (or id prefix) rather than as the prompt: it starts with 8 digits. */
export const SESSION_ID_SHAPE = /^\d{8}(-[0-9a-f-]*)?$/;

export function realOrSame(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
