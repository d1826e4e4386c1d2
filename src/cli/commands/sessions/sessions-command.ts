import { resolve } from 'node:path';
import { listSessions } from '../../../session/list-sessions.js';
import { sessionsDir } from '../../../session/paths.js';
import type { CliArgs } from '../../args/cli-args.js';
import { EXIT } from '../../settings/exit-codes.js';
import { formatSessionTable } from './format-sessions.js';
import { safeStdout } from '../../display/safe-output.js';
import { agentEnvironment } from '../../../secrets/held-secrets.js';

/** `vibe-agent sessions`: this workspace's sessions, newest first. */
export function sessionsCommand(args: CliArgs, env: NodeJS.ProcessEnv = agentEnvironment()): number {
  const workspace = resolve(args.cwd ?? process.cwd());
  const sessions = listSessions(workspace, env);
  if (sessions.length === 0) {
    safeStdout.write(`No saved sessions for ${workspace} (they are kept in ${sessionsDir(workspace, env)}).\n`);
    return EXIT.answered;
  }
  safeStdout.write(`${formatSessionTable(sessions, process.stdout.columns ?? 100)}\n`);
  safeStdout.write(`\nContinue the latest with: vibe-agent --continue "…"; a chosen one with: vibe-agent --resume ID "…"\n`);
  return EXIT.answered;
}
