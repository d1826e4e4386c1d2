import type { AgentEvent } from '../../contracts/events.js';
import type { Message } from '../../contracts/messages.js';
import type { ModelRequest } from '../../contracts/provider.js';
import { collectSecrets, createRedactor } from '../../session/redact.js';
import { createSession, withSystemPrompt, type OpenedSession } from '../../session/session-store.js';
import type { CliArgs } from '../args/cli-args.js';
import { UsageError } from '../args/cli-args.js';
import { busyAsUsage, chooseSessionPath } from './session-choice.js';
import { agentEnvironment } from '../../secrets/held-secrets.js';

export interface RunSession {
  /** The history to pass as AgentOptions.messages (undefined for a new session). */
  messages: Message[] | undefined;
  /** Stores one event; after a write failure it warns once and stops recording. */
  record(event: AgentEvent): void;
  /** Stores a model request the loop sent (see recordingRequests). */
  recordRequest(request: ModelRequest): void;
  close(): void;
  id: string;
  /** The session file. */
  path: string;
  /** Appends a rewind: from here on the history is what the file's first `toRecord` records made. */
  rewind(toRecord: number): void;
}

/**
 * The session this CLI run records into: a new one, or the one chosen by --continue / --resume
 * (rebuilt and reopened for appending; the rebuild's code loads only then). Undefined with --no-session.
 */
export async function openRunSession(args: CliArgs, options: RunSessionOptions): Promise<RunSession | undefined> {
  const env = options.env ?? agentEnvironment();
  const resuming = args.continue || args.resume !== undefined;
  if (args.noSession) {
    if (resuming) throw new UsageError('--no-session cannot be combined with --continue or --resume.');
    return undefined;
  }
  if (args.continue && args.resume !== undefined) throw new UsageError('Give either --continue or --resume, not both.');
  if (!resuming) return newRunSession(args, options);
  const { resumeSession } = await import('../../session/resume-session.js');
  const opened = busyAsUsage(() => resumeSession(chooseSessionPath(args, options.workspace, env), { redact: redactorFor(args, env) }));
  for (const warning of opened.warnings) options.warn(warning);
  return recordingInto(opened, withSystemPrompt(opened.messages, options.system), options);
}

/** A new session (the interactive mode opens one at its first event); undefined, with a warning, when its file cannot be created. */
export function newRunSession(args: CliArgs, options: RunSessionOptions): RunSession | undefined {
  let opened: OpenedSession;
  try {
    opened = createSession({ workspace: options.workspace, env: options.env ?? agentEnvironment(), redact: redactorFor(args, options.env ?? agentEnvironment()) });
  } catch (error) {
    // Saving is a convenience; an unwritable data directory must not cost the user the task.
    options.warn(`the session file could not be created (${(error as Error).message}); this run is not saved.`);
    return undefined;
  }
  return recordingInto(opened, undefined, options);
}

interface RunSessionOptions {
  workspace: string;
  system: string;
  env?: NodeJS.ProcessEnv;
  warn: (text: string) => void;
}

const redactorFor = (args: CliArgs, env: NodeJS.ProcessEnv) => createRedactor(collectSecrets(env, [args.apiKey]));

function recordingInto(opened: OpenedSession, messages: Message[] | undefined, options: RunSessionOptions): RunSession {
  let broken = false;
  const guarded = (action: () => void) => {
    if (broken) return;
    try {
      action();
    } catch (error) {
      broken = true;
      options.warn(`the session file ${opened.path} could not be written (${(error as Error).message}); this run is no longer being saved.`);
    }
  };
  guarded(() => opened.writer.append({ type: 'system_prompt', content: options.system }));
  return {
    id: opened.id,
    path: opened.path,
    messages,
    record: (event) => guarded(() => opened.writer.record(event)),
    recordRequest: (request) => guarded(() => opened.writer.recordRequest(request)),
    rewind: (toRecord) => guarded(() => opened.writer.append({ type: 'rewind', toRecord })),
    close: () => guarded(() => opened.close()),
  };
}

export { busyAsUsage, chooseSessionPath } from './session-choice.js';
