import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { userDataDir } from '../session/paths.js';

/** A background session as `--bg` started it: where it works. Its state is the server's. */
export interface BackgroundEntry {
  id: string;
  name: string;
  /** The folder the user ran `--bg` in (the checkout `land` applies to). */
  repo: string;
  /** The session's own workspace: its worktree, or `repo` without one. */
  workspace: string;
  worktree?: string;
  branch?: string;
  /** What .worktreeinclude linked or copied into the worktree (never part of its work). */
  included?: string[];
  /** The commit the worktree's branch started from. */
  base?: string;
  createdAt: string;
  /** Set by a later line for the same id. */
  landed?: string;
  /** When `discard` removed its worktree (a later line). */
  discarded?: string;
}

const registryFile = (env: NodeJS.ProcessEnv) => join(userDataDir(env), 'background', 'agents.jsonl');

/** Every background session, the last line for an id winning (append-only; each line one write). */
export function readBackgroundEntries(env: NodeJS.ProcessEnv): BackgroundEntry[] {
  let text = '';
  try {
    text = readFileSync(registryFile(env), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const entries = new Map<string, BackgroundEntry>();
  for (const line of text.split('\n')) {
    try {
      const entry = JSON.parse(line) as BackgroundEntry;
      if (typeof entry.id === 'string' && typeof entry.workspace === 'string') entries.set(entry.id, { ...entries.get(entry.id), ...entry });
    } catch {
      // a torn line
    }
  }
  return [...entries.values()];
}

export function addBackgroundEntry(env: NodeJS.ProcessEnv, entry: BackgroundEntry): void {
  mkdirSync(join(userDataDir(env), 'background'), { recursive: true, mode: 0o700 });
  appendFileSync(registryFile(env), `${JSON.stringify(entry)}\n`, { mode: 0o600 });
}
