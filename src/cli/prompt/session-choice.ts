import { findSession, listSessions } from '../../session/list-sessions.js';
import { SessionBusyError } from '../../session/session-lock.js';
import type { CliArgs } from '../args/cli-args.js';
import { UsageError } from '../args/cli-args.js';

/** A session taken by another run is the user's to sort out (exit 2), not a provider error. */
export function asUsage(error: unknown): unknown {
  return error instanceof SessionBusyError ? new UsageError(error.message) : error;
}

export function busyAsUsage<T>(open: () => T): T {
  try {
    return open();
  } catch (error) {
    throw asUsage(error);
  }
}

export function chooseSessionPath(args: CliArgs, workspace: string, env: NodeJS.ProcessEnv): string {
  if (args.continue) {
    const latest = listSessions(workspace, env)[0];
    if (!latest) throw new UsageError(`No saved session to continue in ${workspace}. Start one with: vibe-agent "your task"`);
    return latest.path;
  }
  if (!args.resume) throw new UsageError('--resume needs a session id here. List them with: vibe-agent sessions');
  const found = findSession(workspace, args.resume, env);
  if (!found.ok) {
    const hint = found.matches.length ? `\nMatching: ${found.matches.map((s) => s.id).join(', ')}` : '\nList them with: vibe-agent sessions';
    throw new UsageError(`${found.reason}${hint}`);
  }
  return found.session.path;
}
