import { join } from 'node:path';
import type { Message } from '../contracts/messages.js';
import { newSessionId, realOrSame, sessionsDir } from './paths.js';
import { SESSION_FORMAT_VERSION, type SessionHeader } from './records.js';
import { lockSession, type SessionLock } from './session-lock.js';
import { SessionWriter } from './session-writer.js';

export interface SessionStoreOptions {
  workspace: string;
  env?: NodeJS.ProcessEnv;
  /** Applied to every string written (see createRedactor). */
  redact?: (text: string) => string;
}

export interface OpenedSession {
  id: string;
  path: string;
  writer: SessionWriter;
  /** The rebuilt history (empty for a new session). */
  messages: Message[];
  /** Problems found while loading (torn or corrupt lines), already worked around. */
  warnings: string[];
  /** The highest event number stored (0 for a new session or a file written before numbering). */
  lastSeq: number;
  /** Whether the file's last run never reached its `stop` (the process died mid-turn). */
  inFlight: boolean;
  /** Fsyncs and closes the file and releases the session's lock. */
  close(): void;
}

/** Starts a new session file with its header. */
export function createSession(options: SessionStoreOptions & { now?: Date; kind?: SessionHeader['kind'] }): OpenedSession {
  const now = options.now ?? new Date();
  const id = newSessionId(now);
  const path = join(sessionsDir(options.workspace, options.env), `${id}.jsonl`);
  // Locked before the file exists: a `--continue` that finds the new file must find it taken.
  const lock = lockSession(path);
  const { writer } = openOrRelease(path, options.redact, lock);
  // Not synced here (it would stall the first request): the first turn end's fsync carries the header too.
  writer.append({ type: 'session', version: SESSION_FORMAT_VERSION, id, workspace: realOrSame(options.workspace), createdAt: now.toISOString(), ...(options.kind ? { kind: options.kind } : {}) });
  return { id, path, writer, messages: [], warnings: [], lastSeq: 0, inFlight: false, close: closer(writer, lock) };
}

/** Opens the file for appending under the lock it was taken with; the lock is released if that fails. */
export function openOrRelease(path: string, redact: SessionStoreOptions['redact'], lock: SessionLock): { writer: SessionWriter } {
  try {
    return SessionWriter.open(path, redact ? { redact } : {});
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** Closes the writer (fsync) and releases the lock, whatever happens. */
export function closer(writer: SessionWriter, lock: SessionLock): () => void {
  return () => {
    try {
      writer.close();
    } finally {
      lock.release();
    }
  };
}

/**
 * The history to pass as `AgentOptions.messages` when resuming: the rebuilt messages with the
 * current system prompt in front (memory may have changed since), replacing the recorded one.
 */
export function withSystemPrompt(messages: Message[], system: string): Message[] {
  const rest = messages[0]?.role === 'system' ? messages.slice(1) : messages;
  return [{ role: 'system', content: system }, ...rest];
}
