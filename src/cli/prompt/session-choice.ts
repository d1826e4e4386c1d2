import { findSession, isConversation, listSessions } from '../../session/list-sessions.js';
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

/**
 * The session `--continue` (the latest) or `--resume ID` names. A land's rewind point is not a
 * conversation: passed by unless `lands` (rewind, which undoes lands too).
 */
export function chooseSessionPath(args: CliArgs, workspace: string, env: NodeJS.ProcessEnv, { lands = false }: { lands?: boolean } = {}): string {
  if (args.continue) {
    const latest = listSessions(workspace, env).filter((session) => lands || isConversation(session))[0];
    if (!latest) throw new UsageError(`No saved session to continue in ${workspace}. Start one with: vibe-agent "your task"`);
    return latest.path;
  }
  if (!args.resume) throw new UsageError('--resume needs a session id here. List them with: vibe-agent sessions');
  const found = findSession(workspace, args.resume, env);
  if (!found.ok) {
    const hint = found.matches.length ? `\nMatching: ${found.matches.map((s) => s.id).join(', ')}` : '\nList them with: vibe-agent sessions';
    throw new UsageError(`${found.reason}${hint}`);
  }
  if (!lands && !isConversation(found.session)) {
    throw new UsageError(`${found.session.id} is the rewind point of a land (${found.session.firstPrompt}), not a conversation to resume; undo it with: vibe-agent rewind --resume ${found.session.id}`);
  }
  return found.session.path;
}
