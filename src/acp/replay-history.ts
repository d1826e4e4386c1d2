import type { AgentEvent } from '../contracts/events.js';
import type { Message } from '../contracts/messages.js';

/**
 * A stored conversation as the events that would have shown it, so session/load replays it to the
 * editor through the same translation as a live prompt. User turns are not loop events; they come
 * back as `{ user }` items.
 */
export function replayEvents(messages: readonly Message[]): Array<AgentEvent | { user: string }> {
  const out: Array<AgentEvent | { user: string }> = [];
  let turn = 0;
  for (const message of messages) {
    if (message.role === 'system') continue;
    if (message.role === 'user') {
      out.push({ user: message.content });
      continue;
    }
    if (message.role === 'assistant') {
      turn++;
      if (message.reasoning) out.push({ type: 'reasoning_delta', turn, text: message.reasoning });
      if (message.content) out.push({ type: 'text_delta', turn, text: message.content });
      for (const call of message.toolCalls) out.push({ type: 'tool_call_start', turn, call });
      continue;
    }
    out.push({ type: 'tool_call_end', turn, id: message.toolCallId, name: message.name, status: message.isError ? 'error' : 'ok', isError: message.isError, output: message.content, durationMs: 0 });
  }
  return out;
}
