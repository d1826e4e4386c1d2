import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { findForeignSessions, type ForeignSessionSummary } from '../../../session/import/find-foreign-sessions.js';
import { importForeignSession, NotASessionError, type ImportOutcome } from '../../../session/import/import-session.js';
import { ledgerPath, readLedger } from '../../../session/import/import-ledger.js';
import { AGENT_NAMES } from '../../../session/import/import-model.js';
import { sessionsDir } from '../../../session/paths.js';
import { collectSecrets, createRedactor } from '../../../session/redact.js';
import { agentEnvironment } from '../../../secrets/held-secrets.js';
import type { CliArgs } from '../../args/cli-args.js';
import { safeStdout, safeStderr } from '../../display/safe-output.js';
import { EXIT } from '../../settings/exit-codes.js';
import { UsageError } from '../../settings/usage-error.js';
import type { ImportArgs } from './import-args.js';
import { formatForeignSessions } from './format-foreign-sessions.js';
import { visibleValue } from '../../display/visible-text.js';

/** `vibe-agent import`: list the other agents' sessions of this workspace, import one or all, and maybe continue it. */
export async function importCommand(args: CliArgs & { import?: ImportArgs }, signal: AbortSignal, env: NodeJS.ProcessEnv = agentEnvironment()): Promise<number> {
  const options = args.import ?? { all: false, continueAfter: false };
  const workspace = resolve(args.cwd ?? process.cwd());
  const redact = createRedactor(collectSecrets(env, [args.apiKey]));
  if (options.source === undefined && !options.all) {
    const sessions = findForeignSessions(workspace, env);
    if (!sessions.length) {
      safeStdout.write(`No Claude Code, Codex, Gemini CLI or pi sessions were found for ${workspace}.\n`);
      return EXIT.answered;
    }
    const imported = new Set(Object.values(readLedger(ledgerPath(sessionsDir(workspace, env)))).map((entry) => entry.source));
    safeStdout.write(`${formatForeignSessions(sessions, imported, process.stdout.columns ?? 100)}\n\nImport one with: vibe-agent import ID (or PATH); all with: vibe-agent import --all\n`);
    return EXIT.answered;
  }
  if (options.all) {
    let failed = 0;
    for (const session of findForeignSessions(workspace, env)) {
      if (signal.aborted) return EXIT.aborted;
      try {
        report(importForeignSession(session.path, { workspace, env, redact }));
      } catch (error) {
        failed++;
        safeStderr.write(`vibe-agent: ${visibleValue((error as Error).message)}\n`);
      }
    }
    return failed ? EXIT.providerError : EXIT.answered;
  }
  const path = sourcePath(options.source!, workspace, env);
  let outcome: ImportOutcome;
  try {
    outcome = importForeignSession(path, { workspace, env, redact });
  } catch (error) {
    if (error instanceof NotASessionError) throw new UsageError(error.message);
    throw error;
  }
  report(outcome);
  if (!options.continueAfter) return EXIT.answered;
  return continueSession({ ...args, command: 'run', resume: outcome.sessionId }, signal);
}

/** A path to a file, or the id (or a unique prefix) of a listed session. */
function sourcePath(source: string, workspace: string, env: NodeJS.ProcessEnv): string {
  if (existsSync(source)) return source;
  const sessions = findForeignSessions(workspace, env);
  const exact = sessions.filter((session) => session.id === source);
  const matches = exact.length ? exact : sessions.filter((session) => session.id.startsWith(source));
  if (matches.length === 1) return matches[0]!.path;
  if (!matches.length) throw new UsageError(`"${source}" is neither a file nor the id of a session listed for ${workspace}. List them with: vibe-agent import`);
  throw new UsageError(`"${source}" matches ${matches.length} sessions (${matches.slice(0, 5).map((session: ForeignSessionSummary) => session.id).join(', ')}…); give more of the id.`);
}

function report(outcome: ImportOutcome): void {
  // Ids and record types come from the file: shown with any control character written out.
  const from = `${AGENT_NAMES[outcome.agent]} session ${visibleValue(outcome.sourceId)}`;
  if (outcome.already) {
    safeStdout.write(`${from} was imported before, as ${outcome.sessionId}; nothing changed.\n`);
    return;
  }
  const s = outcome.stats!;
  const skipped = Object.entries(s.skipped).map(([reason, count]) => `${count} ${visibleValue(reason)}`);
  safeStdout.write(
    `Imported ${from} as ${outcome.sessionId}: ${s.messages} messages, ${s.toolCalls} tool calls (${s.mappedCalls} as Vibe tools, ${s.foreignCalls} kept foreign), ${s.results} results, ${s.branches} branch${s.branches === 1 ? '' : 'es'}, ${s.compactions} compaction${s.compactions === 1 ? '' : 's'}${s.sidechains ? `, ${s.sidechains} subagent conversation${s.sidechains === 1 ? '' : 's'}` : ''}.\n` +
      (skipped.length ? `Left out or stood in for: ${skipped.join('; ')}.\n` : '') +
      `Continue it with: vibe-agent --resume ${outcome.sessionId} "…"${s.branches > 1 ? `; other branches: vibe-agent rewind --list --resume ${outcome.sessionId}` : ''}\n`,
  );
}

/** The ordinary resume path: interactive in a terminal, else one run with the given (or piped) message. */
async function continueSession(args: CliArgs, signal: AbortSignal): Promise<number> {
  let prompt = args.prompt;
  if (prompt === undefined && !args.json && process.stdin.isTTY && process.stdout.isTTY) {
    const { interactiveCommand } = await import('../interactive/interactive-command.js');
    return interactiveCommand(args, signal);
  }
  if (prompt === undefined && !process.stdin.isTTY) {
    const { readPipedPrompt } = await import('../../prompt/read-piped-prompt.js');
    prompt = await readPipedPrompt();
  }
  if (prompt === undefined || prompt.trim() === '') throw new UsageError(`--resume needs the next message here (no terminal): vibe-agent import ID --resume "next message", or vibe-agent --resume ${args.resume} "…"`);
  const { runCommand } = await import('../run/run-command.js');
  return runCommand(args, prompt, signal);
}
