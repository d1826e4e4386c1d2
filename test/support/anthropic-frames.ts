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

/** The prompt's usage as the cache simulation billed it (bench/prompt-cache.mjs), in the API's fields. */
export interface PromptUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
}

/**
 * The reply's usage: the simulated prompt usage, unless the script set its own input figures
 * (then reads are `cachedInputTokens`, writes `cacheWriteTokens`, the rest plain input).
 */
export function wireUsage(reply: ScriptedReply, prompt: PromptUsage) {
  const scripted = reply.usage?.inputTokens !== undefined;
  const read = scripted ? (reply.usage?.cachedInputTokens ?? 0) : prompt.cache_read_input_tokens;
  const written = scripted ? (reply.usage?.cacheWriteTokens ?? 0) : prompt.cache_creation_input_tokens;
  const written1h = scripted ? (reply.usage?.cacheWrite1hTokens ?? 0) : prompt.cache_creation.ephemeral_1h_input_tokens;
  return {
    input_tokens: scripted ? reply.usage!.inputTokens! - read - written : prompt.input_tokens,
    cache_creation_input_tokens: written,
    cache_read_input_tokens: read,
    cache_creation: { ephemeral_5m_input_tokens: written - written1h, ephemeral_1h_input_tokens: written1h },
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

export function streamEvents(model: string, planned: PlannedReply, prompt: PromptUsage): SseEvent[] {
  const usage = wireUsage(planned.reply, prompt);
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

export function jsonMessage(model: string, planned: PlannedReply, prompt: PromptUsage) {
  const content: unknown[] = [...planned.thinking];
  if (planned.reply.text) content.push({ type: 'text', text: planned.reply.text, citations: null });
  content.push(...planned.toolUses);
  return { ...messageShell(model, wireUsage(planned.reply, prompt)), content, stop_reason: planned.stopReason, usage: wireUsage(planned.reply, prompt) };
}

export function sseFrame(event: SseEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}
