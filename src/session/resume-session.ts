import { readSessionFile } from './read-session.js';
import { rebuildHistory } from './rebuild-history.js';
import { lastSeq, runInFlight } from './session-events.js';
import { lockSession } from './session-lock.js';
import { imagesDirFor, loadImages } from './session-images.js';
import { closer, openOrRelease, type OpenedSession, type SessionStoreOptions } from './session-store.js';

// Apart from session-store.ts: rebuilding reads the file back through zod schemas, which a new session never needs.
/** Loads a session file, rebuilds its history and reopens it for appending. */
export function resumeSession(path: string, options: Pick<SessionStoreOptions, 'redact'> = {}): OpenedSession {
  // Locked before reading, so no other run appends between the rebuild and this run's first record.
  const lock = lockSession(path);
  const read = readSessionFile(path);
  const imageWarnings: string[] = [];
  const rebuilt = rebuildHistory(loadImages(read.records, imagesDirFor(path), imageWarnings));
  const { writer } = openOrRelease(path, options.redact, lock);
  const id = read.header?.id ?? path.replace(/^.*[\\/]/, '').replace(/\.jsonl$/, '');
  return { id, path, writer, messages: rebuilt.messages, warnings: [...read.warnings, ...imageWarnings, ...rebuilt.warnings], lastSeq: lastSeq(read.records), inFlight: runInFlight(read.records), close: closer(writer, lock) };
}
