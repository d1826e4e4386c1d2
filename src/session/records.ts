import type { AgentEvent } from '../contracts/events.js';
import type { Message } from '../contracts/messages.js';
import type { RequestRecord } from './request-record.js';

/** 2: `request` records (what each model request held). Readers take any version and skip what they do not know. */
export const SESSION_FORMAT_VERSION = 2;

/** The first line of every session file. */
export interface SessionHeader {
  type: 'session';
  version: number;
  id: string;
  /** The workspace's real path. */
  workspace: string;
  createdAt: string;
  /** `land`: the rewind point of a `vibe-agent land`, not a conversation: `rewind` finds it, `--continue` and `--resume` pass it by. */
  kind?: 'land';
}

/** Written before each run's `run_start`: the system prompt that run's requests began with. */
export interface SystemPromptRecord {
  type: 'system_prompt';
  content: string;
}

/** Written when a file is reopened after a crash left an unfinished last line, which was cut off. */
export interface RecoveredRecord {
  type: 'recovered';
  droppedBytes: number;
}

/**
 * A `turn_end` as the session writer stores it: the turn's first `fromEvents` messages are not
 * repeated here, because its `assistant_message` and `tool_call_end` records already hold them
 * (see TurnEvents); `messages` holds the rest (e.g. a prompt-JSON correction). A `turn_end`
 * without `fromEvents` (files written before it existed) holds all of the turn's messages.
 */
export interface StoredTurnEnd {
  type: 'turn_end';
  turn: number;
  fromEvents: number;
  messages: Message[];
}

/** Written by a rewind: from here on, the history is what the file's first `toRecord` records made it. */
export interface RewindRecord {
  type: 'rewind';
  toRecord: number;
}

/** One line of a session file. Deltas are not stored: `assistant_message` carries the whole text. */
export type SessionRecord = SessionHeader | SystemPromptRecord | RecoveredRecord | StoredTurnEnd | RewindRecord | RequestRecord | AgentEvent;

export const HISTORY_RECORD_TYPES = new Set(['system_prompt', 'run_start', 'turn_start', 'assistant_message', 'tool_call_end', 'turn_end', 'compaction', 'context_rewrite', 'rewind']);
