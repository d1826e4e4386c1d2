/**
 * Turns a neutral ScriptedReply into what the Messages API sends: SSE events (content blocks
 * started, fragmented deltas, stopped; usage in message_start and message_delta) or one JSON
 * message. Thinking blocks get a signature the server remembers, so it can check the replay.
 */
import type { ScriptedReply } from '../../src/providers/scripted.js';

export interface WireToolUse {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

export interface WireThinking {
  type: 'thinking';
  thinking: string;
  signature: string;
}

/** One reply, with the ids and signatures the server assigned. */
export interface PlannedReply {
  reply: ScriptedReply;
  thinking: WireThinking[];
  toolUses: WireToolUse[];
  /** Raw argument text per call, sent as input_json_delta fragments. */
  rawArguments: string[];
  stopReason: string;
}

export interface SseEvent {
  event: string;
  data: unknown;
}

export function stopReasonOf(reply: ScriptedReply, hasCalls: boolean): string {
  switch (reply.finishReason) {
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'refusal';
    case 'stop':
      return 'end_turn';
    case 'tool_calls':
      return 'tool_use';
    default:
      return hasCalls ? 'tool_use' : 'end_turn';
  }
}

/**
 * The neutral total is split three ways (plain, cache write, cache read) so a client has to sum
 * them: cache reads are `cachedInputTokens`, a quarter of the rest is reported as cache writes.
 */
export function wireUsage(reply: ScriptedReply, promptChars: number) {
  const total = reply.usage?.inputTokens ?? Math.ceil(promptChars / 4);
  const cacheRead = reply.usage?.cachedInputTokens ?? 0;
  const cacheCreation = Math.floor((total - cacheRead) / 4);
  return {
    input_tokens: total - cacheRead - cacheCreation,
    cache_creation_input_tokens: cacheCreation,
    cache_read_input_tokens: cacheRead,
    output_tokens: reply.usage?.outputTokens ?? 10,
    output_tokens_details: { thinking_tokens: reply.usage?.reasoningTokens ?? 0 },
  };
}

function fragments(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function messageShell(model: string, usage: ReturnType<typeof wireUsage>) {
  return { id: 'msg_test', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } };
}

export function streamEvents(model: string, planned: PlannedReply, promptChars: number): SseEvent[] {
  const usage = wireUsage(planned.reply, promptChars);
  const events: SseEvent[] = [{ event: 'message_start', data: { type: 'message_start', message: messageShell(model, usage) } }];
  events.push({ event: 'ping', data: { type: 'ping' } });
  let index = 0;
  const block = (start: unknown, deltas: unknown[]) => {
    events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: start } });
    for (const delta of deltas) events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta } });
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
    index++;
  };
  for (const thinking of planned.thinking) {
    block({ type: 'thinking', thinking: '', signature: '' }, [
      ...fragments(thinking.thinking, 8).map((piece) => ({ type: 'thinking_delta', thinking: piece })),
      { type: 'signature_delta', signature: thinking.signature },
    ]);
  }
  if (planned.reply.text) {
    block({ type: 'text', text: '', citations: null }, fragments(planned.reply.text, 5).map((piece) => ({ type: 'text_delta', text: piece })));
  }
  planned.toolUses.forEach((use, position) => {
    block({ type: 'tool_use', id: use.id, name: use.name, input: {} }, fragments(planned.rawArguments[position]!, 7).map((piece) => ({ type: 'input_json_delta', partial_json: piece })));
  });
  events.push({
    event: 'message_delta',
    data: { type: 'message_delta', delta: { stop_reason: planned.stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens, output_tokens_details: usage.output_tokens_details } },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}

export function jsonMessage(model: string, planned: PlannedReply, promptChars: number) {
  const content: unknown[] = [...planned.thinking];
  if (planned.reply.text) content.push({ type: 'text', text: planned.reply.text, citations: null });
  content.push(...planned.toolUses);
  return { ...messageShell(model, wireUsage(planned.reply, promptChars)), content, stop_reason: planned.stopReason, usage: wireUsage(planned.reply, promptChars) };
}

export function sseFrame(event: SseEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}
