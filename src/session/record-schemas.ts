import { z } from 'zod';
import type { AssistantMessage, Message } from '../contracts/messages.js';

// The shapes a session file is read back with (resume, trace, replay); writing needs none of this.
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
  citations: z.array(z.object({ url: z.string(), title: z.string().optional(), citedText: z.string().optional() })).optional(),
  providerData: z.object({ provider: z.string(), model: z.string() }).catchall(z.unknown()).optional(),
});

const toolMessageSchema = z.object({ role: z.literal('tool'), toolCallId: z.string(), name: z.string(), content: z.string(), isError: z.boolean(), images: imagesSchema });

export const messageSchema: z.ZodType<Message> = z.union([
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string(), images: imagesSchema }),
  assistantMessageSchema,
  toolMessageSchema,
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
  z.object({
    type: z.literal('context_rewrite'),
    turn: z.number().optional(),
    /** Indexes into the history as it was when the rewrite ran, each with the stub that took its place. */
    stubbed: z.array(z.object({ at: z.number().int().min(0), message: toolMessageSchema })),
  }),
]);

export type HistoryRecord = z.infer<typeof historyRecordSchema>;
