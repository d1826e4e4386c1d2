import type { AgentEvent } from '../contracts/events.js';
import type { Message } from '../contracts/messages.js';
import type { ModelRequest } from '../contracts/provider.js';
import { createSession, withSystemPrompt, type OpenedSession } from '../session/session-store.js';
import { readEventsAfter } from '../session/session-events.js';
import type { ConversationEvent, ConversationNotice } from './conversation-types.js';

/** Which session file a conversation records into. */
export type SessionChoice =
  /** Nothing saved (`--no-session`, eval, a subagent). */
  | { kind: 'none' }
  /** A new file; `lazy`: created at the first stored event, so a conversation that sends nothing leaves none. */
  | { kind: 'new'; lazy?: boolean; /** It follows a /clear (SessionStart's source says so). */ afterClear?: boolean }
  /** A stored session, already chosen by the front end (its path). */
  | { kind: 'resume'; path: string };

export interface SessionFileOptions {
  workspace: string;
  system: string;
  env: NodeJS.ProcessEnv;
  redact: (text: string) => string;
  warn: (text: string) => void;
}

/** The session file as a conversation uses it: every write guarded (a failure warns once, then saving stops, the run goes on). */
export interface SessionFile {
  id: string;
  path: string;
  /** The history to continue (undefined for a new session), with today's system prompt in front. */
  messages: Message[] | undefined;
  lastSeq: number;
  inFlight: boolean;
  record(event: AgentEvent, seq: number): void;
  notice(notice: ConversationNotice, seq: number): void;
  recordRequest(request: ModelRequest): void;
  /** The stored events numbered above `after`, read back from the file. */
  readAfter(after: number): ConversationEvent[];
  /** Appends a rewind: from here on the history is what the file's first `toRecord` records made. */
  rewind(toRecord: number): void;
  close(): void;
}

/** A new session file; undefined, with a warning, when it cannot be created (saving is a convenience, the task is not). */
export function newSessionFile(options: SessionFileOptions): SessionFile | undefined {
  let opened: OpenedSession;
  try {
    opened = createSession({ workspace: options.workspace, env: options.env, redact: options.redact });
  } catch (error) {
    options.warn(`the session file could not be created (${(error as Error).message}); this conversation is not saved.`);
    return undefined;
  }
  return sessionFile(opened, undefined, options);
}

/** A stored session reopened for appending (its rebuild's code loads only then); throws when it is locked or unreadable. */
export async function resumeSessionFile(path: string, options: SessionFileOptions): Promise<SessionFile> {
  const { resumeSession } = await import('../session/resume-session.js');
  const opened = resumeSession(path, { redact: options.redact });
  for (const warning of opened.warnings) options.warn(warning);
  return sessionFile(opened, opened.messages.length ? withSystemPrompt(opened.messages, options.system) : undefined, options);
}

export function sessionFile(opened: OpenedSession, messages: Message[] | undefined, options: Pick<SessionFileOptions, 'system' | 'warn'>): SessionFile {
  let broken = false;
  const guarded = (action: () => void) => {
    if (broken) return;
    try {
      action();
    } catch (error) {
      broken = true;
      options.warn(`the session file ${opened.path} could not be written (${(error as Error).message}); this conversation is no longer being saved.`);
    }
  };
  guarded(() => opened.writer.append({ type: 'system_prompt', content: options.system }));
  return {
    id: opened.id,
    path: opened.path,
    messages,
    lastSeq: opened.lastSeq,
    inFlight: opened.inFlight,
    record: (event, seq) => guarded(() => opened.writer.record(event, seq)),
    notice: (notice, seq) => guarded(() => opened.writer.recordNotice(notice, seq)),
    recordRequest: (request) => guarded(() => opened.writer.recordRequest(request)),
    readAfter: (after) => readEventsAfter(opened.path, after) as unknown as ConversationEvent[],
    rewind: (toRecord) => guarded(() => opened.writer.append({ type: 'rewind', toRecord })),
    close: () => guarded(() => opened.close()),
  };
}
