import { closeSync, fsync, fsyncSync, ftruncateSync, fstatSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AgentEvent } from '../contracts/events.js';
import type { ModelRequest } from '../contracts/provider.js';
import { redactedJson } from './redact.js';
import { RequestLog } from './request-record.js';
import { imagesDirFor, storeImageFiles } from './session-images.js';
import type { SessionRecord, StoredTurnEnd } from './records.js';
import { isTurnEvent, TurnEvents } from './turn-events.js';

/** Events not stored: the `assistant_message` that follows carries the same text whole. */
const SKIPPED = new Set(['text_delta', 'reasoning_delta', 'tool_call_delta']);
/** After these an fsync is started: a completed turn, a changed history, the end of a run. */
const DURABLE = new Set(['turn_end', 'compaction', 'stop']);

export interface SessionWriterOptions {
  /** Applied to every string before it is written (see createRedactor). */
  redact?: (text: string) => string;
}

/**
 * Appends records to a session file, one JSON object per line. Each line goes to the kernel with
 * one write as soon as it is recorded (a killed process loses nothing already recorded). At each
 * turn end an fsync is started in the background and never waited for by the loop (group commit:
 * at most one in flight; turn ends that come meanwhile share the next one), so a machine crash
 * loses at most the last turn or two; `close` syncs before it returns.
 */
export class SessionWriter {
  private fd: number | undefined;
  private readonly redact: (text: string) => string;
  private readonly turn = new TurnEvents();
  private readonly requests: RequestLog;
  /** Images go to files beside the session, once each; the line keeps their hashes. */
  private readonly storeImages: (images: unknown[]) => unknown[];
  private syncing = false;
  private syncAgain = false;
  private syncError: Error | undefined;

  private constructor(
    readonly path: string,
    fd: number,
    options: SessionWriterOptions,
  ) {
    this.fd = fd;
    this.redact = options.redact ?? ((text) => text);
    this.requests = new RequestLog(this.redact);
    this.storeImages = storeImageFiles(imagesDirFor(path));
  }

  /**
   * Opens (creating it and its directory if needed) for appending. An unfinished last line left by
   * a crash is cut off first, so the next record starts on a line of its own.
   */
  static open(path: string, options: SessionWriterOptions = {}): { writer: SessionWriter; droppedBytes: number } {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const fd = openSync(path, 'a+', 0o600);
    const droppedBytes = cutUnfinishedLine(fd);
    const writer = new SessionWriter(path, fd, options);
    if (droppedBytes > 0) writer.append({ type: 'recovered', droppedBytes });
    return { writer, droppedBytes };
  }

  append(record: SessionRecord): void {
    if (this.fd === undefined) throw new Error(`Session file ${this.path} is closed.`);
    if (this.syncError) throw this.syncError;
    const bytes = Buffer.from(`${redactedJson(record, this.redact, this.storeImages)}\n`, 'utf8');
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(this.fd, bytes, offset, bytes.length - offset);
  }

  /**
   * Stores an agent event (deltas skipped) and syncs at the points a resume depends on. A
   * `turn_end` is stored without the messages its turn's events already hold, so each message
   * is in the file once (see StoredTurnEnd). `seq`, the conversation's number for the event, is
   * stored with it (see session-events.ts).
   */
  record(event: AgentEvent, seq?: number): void {
    if (SKIPPED.has(event.type)) return;
    const numbered = <T extends object>(record: T): T => (seq === undefined ? record : { ...record, seq });
    // A subagent's events are kept for the record; its turns are not this conversation's.
    if (event.agent) return this.append(numbered(event));
    this.append(numbered(event.type === 'turn_end' ? this.withoutHeldMessages(event) : event));
    // Only what reached the file counts as held.
    if (isTurnEvent(event)) this.turn.observe(event);
    if (DURABLE.has(event.type)) this.syncInBackground();
  }

  /**
   * Stores a model request the loop sent, as a change to a recent one (see RequestRecord), so a
   * replay can compare what a later version of the agent sends. Redacted before the digest is taken.
   */
  recordRequest(request: ModelRequest): void {
    this.append(this.requests.record(request));
  }

  /** Stores a record that is not a loop event (a question, an interruption) under its number. */
  recordNotice(notice: { type: string; [key: string]: unknown }, seq: number): void {
    this.append({ ...notice, seq } as unknown as SessionRecord);
  }

  /** Waits for the disk (the loop never calls this: see syncInBackground). */
  sync(): void {
    if (this.fd !== undefined) fsyncSync(this.fd);
  }

  /** Group commit: one fsync in flight at most; requests meanwhile are served by one more after it. */
  private syncInBackground(): void {
    if (this.fd === undefined) return;
    if (this.syncing) {
      this.syncAgain = true;
      return;
    }
    this.syncing = true;
    const fd = this.fd;
    fsync(fd, (error) => {
      this.syncing = false;
      // After close the descriptor is gone (close synced it): an error then means nothing.
      if (this.fd !== fd) return;
      if (error) this.syncError = new Error(`Could not sync session file ${this.path}: ${error.message}`);
      if (this.syncAgain) {
        this.syncAgain = false;
        this.syncInBackground();
      }
    });
  }

  close(): void {
    if (this.fd === undefined) return;
    this.sync();
    closeSync(this.fd);
    this.fd = undefined;
  }

  private withoutHeldMessages(event: Extract<AgentEvent, { type: 'turn_end' }>): StoredTurnEnd {
    const fromEvents = this.turn.countHeld(event.messages);
    return { type: 'turn_end', turn: event.turn, fromEvents, messages: event.messages.slice(fromEvents) };
  }
}

/** Truncates the file after its last newline; returns how many bytes were cut. */
function cutUnfinishedLine(fd: number): number {
  const size = fstatSync(fd).size;
  if (size === 0) return 0;
  const chunk = Buffer.alloc(64 * 1024);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunk.length);
    const read = readSync(fd, chunk, 0, end - start, start);
    const newline = chunk.subarray(0, read).lastIndexOf(0x0a);
    if (newline !== -1) {
      const keep = start + newline + 1;
      if (keep < size) ftruncateSync(fd, keep);
      return size - keep;
    }
    end = start;
  }
  ftruncateSync(fd, 0);
  return size;
}
