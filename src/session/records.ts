import { z } from 'zod';
import type { AgentEvent } from '../contracts/events.js';
import type { AssistantMessage, Message } from '../contracts/messages.js';

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

const imageSchema = z.object({
  mediaType: z.enum(['image/png', 'image/jpeg', 'image/gif', 'image/webp']),
  data: z.string(),
  sha256: z.string(),
  name: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
});
const imagesSchema = z.array(imageSchema).optional();

const toolCallSchema = z.object({ id: z.string(), name: z.string(), arguments: z.string() });

const assistantMessageSchema: z.ZodType<AssistantMessage> = z.object({
  role: z.literal('assistant'),
  content: z.string(),
  toolCalls: z.array(toolCallSchema),
  reasoning: z.string().optional(),
  providerData: z.object({ provider: z.string(), model: z.string() }).catchall(z.unknown()).optional(),
});

export const messageSchema: z.ZodType<Message> = z.union([
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string(), images: imagesSchema }),
  assistantMessageSchema,
  z.object({ role: z.literal('tool'), toolCallId: z.string(), name: z.string(), content: z.string(), isError: z.boolean(), images: imagesSchema }),
]);

/** The records the history is rebuilt from; everything else in the file is for people and listings. */
export const historyRecordSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('system_prompt'), content: z.string() }),
  z.object({ type: z.literal('run_start'), input: z.string(), images: imagesSchema }),
  z.object({ type: z.literal('turn_start') }),
  z.object({ type: z.literal('rewind'), toRecord: z.number().int().min(0) }),
  z.object({ type: z.literal('assistant_message'), message: assistantMessageSchema }),
  z.object({ type: z.literal('tool_call_end'), id: z.string(), name: z.string(), output: z.string(), isError: z.boolean(), images: imagesSchema }),
  z.object({ type: z.literal('turn_end'), turn: z.number(), fromEvents: z.number().int().min(0).optional(), messages: z.array(messageSchema) }),
  z.object({
    type: z.literal('compaction'),
    turn: z.number().optional(),
    summary: z.string().optional(),
    /** The summary message that took the place of the replaced range. */
    message: messageSchema.optional(),
    /** What took the replaced range's place, in order (the context policy's form). */
    inserted: z.array(messageSchema).optional(),
    /** Indexes into the history as it was when the compaction ran. */
    replaced: z.object({ from: z.number().int().min(0), count: z.number().int().min(0) }).optional(),
  }),
]);

export type HistoryRecord = z.infer<typeof historyRecordSchema>;

export const HISTORY_RECORD_TYPES = new Set(['system_prompt', 'run_start', 'turn_start', 'assistant_message', 'tool_call_end', 'turn_end', 'compaction', 'rewind']);
