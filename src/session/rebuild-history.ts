import type { Message } from '../contracts/messages.js';
import { applyRewrite } from './apply-rewrite.js';
import { historyRecordSchema } from './record-schemas.js';
import { HISTORY_RECORD_TYPES } from './records.js';
import type { RawRecord } from './read-session.js';
import { TurnEvents } from './turn-events.js';

export interface RebuiltHistory {
  /** The messages the model saw, in order, starting with the system prompt when one was recorded. */
  messages: Message[];
  warnings: string[];
}

/**
 * Replays a session's records into the history the loop held: each run's system prompt and user
 * input, each completed turn's messages (from its events and its `turn_end`), and each
 * compaction's replacement of a range by its summary, and each rewrite point's stubs. A turn that was in flight when the process
 * died has no `turn_end` and is left out whole, so an assistant's tool calls are never separated
 * from their results.
 */
export function rebuildHistory(records: RawRecord[]): RebuiltHistory {
  const messages: Message[] = [];
  const warnings: string[] = [];
  const turn = new TurnEvents();
  records.forEach((raw, index) => {
    // A subagent's records: the parent's history holds only its result (the task call's tool message).
    if (!HISTORY_RECORD_TYPES.has(raw.type) || 'agent' in raw) return;
    const parsed = historyRecordSchema.safeParse(raw);
    if (!parsed.success) {
      warnings.push(`record ${index + 1} (${raw.type}) is malformed and was skipped: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      return;
    }
    const record = parsed.data;
    switch (record.type) {
      case 'system_prompt':
        // A later run's prompt (memory may have changed) replaces the earlier one in place.
        if (messages[0]?.role === 'system') messages[0] = { role: 'system', content: record.content };
        else if (messages.length === 0) messages.push({ role: 'system', content: record.content });
        break;
      case 'run_start':
        messages.push({ role: 'user', content: record.input, ...(record.images?.length ? { images: record.images } : {}) });
        break;
      case 'rewind':
        // Earlier rewinds inside the prefix are replayed by the same rule.
        messages.splice(0, messages.length, ...rebuildHistory(records.slice(0, Math.min(record.toRecord, index))).messages);
        break;
      case 'turn_start':
      case 'assistant_message':
      case 'tool_call_end':
        turn.observe(record);
        break;
      case 'turn_end': {
        const fromEvents = turn.messages(record.fromEvents ?? 0);
        turn.observe(record);
        if (!fromEvents) {
          warnings.push(`record ${index + 1}: turn ${record.turn}'s messages are not all in its events; the turn was skipped.`);
          break;
        }
        messages.push(...fromEvents, ...record.messages);
        break;
      }
      case 'compaction': {
        if (!record.replaced) break;
        const { from, count } = record.replaced;
        if (from + count > messages.length) {
          warnings.push(`record ${index + 1}: compaction replaces messages ${from}..${from + count - 1} but the history has ${messages.length}; skipped.`);
          break;
        }
        const summary: Message[] = record.inserted ? record.inserted : record.message ? [record.message] : record.summary ? [{ role: 'user', content: record.summary }] : [];
        messages.splice(from, count, ...summary);
        break;
      }
      case 'context_rewrite': {
        const problem = applyRewrite(messages, record.stubbed);
        if (problem) warnings.push(`record ${index + 1}: ${problem}; skipped.`);
        break;
      }
    }
  });
  return { messages, warnings };
}
