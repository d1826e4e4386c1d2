import type { AssistantMessage, Message, ToolCall } from '../../contracts/messages.js';
import type { ModelRequest, ModelResponse, ProtocolError } from '../../contracts/provider.js';
import { withPromptJsonData } from './convert-history.js';
import { parseReply } from './parse-reply.js';
import { REPLY_CONTRACT } from './protocol-prompt.js';

/** A reply read as the loop needs it, or why it could not be read (and what to tell the model). */
export type ReadReply = { ok: true; response: ModelResponse } | { ok: false; protocolError: ProtocolError };

/**
 * Turns the inner model's text into tool calls or an answer. `reminded`: the reply before this
 * one was prose that got a reminder, so prose again is taken as the answer (a model that will not
 * speak the protocol should not burn the request budget).
 */
export function readResponse(raw: string, inner: ModelResponse, request: ModelRequest, innerName: string, reminded: boolean): ReadReply {
  const base = { provider: innerName, model: request.model };
  const build = (message: AssistantMessage, finishReason = inner.finishReason): ReadReply => {
    const response: ModelResponse = { message: withPromptJsonData(message, { raw }, base), finishReason };
    if (inner.usage) response.usage = inner.usage;
    return { ok: true, response };
  };
  // Calls the inner provider produced natively (it was offered none, but some servers improvise).
  if (inner.message.toolCalls.length) return build(inner.message, 'tool_calls');

  const parsed = parseReply(raw);
  const noTools = request.tools.length === 0;
  if (parsed.kind === 'calls' && !noTools) {
    const turn = nextTurnNumber(request.messages);
    const toolCalls: ToolCall[] = parsed.calls.map((call, n) => ({ id: `pj_${turn}_${n}`, name: call.name, arguments: JSON.stringify(call.arguments) }));
    return build({ ...inner.message, content: '', toolCalls }, 'tool_calls');
  }
  if (parsed.kind === 'answer') return build({ ...inner.message, content: parsed.text, toolCalls: [] });
  if (noTools || parsed.kind !== 'invalid' || (parsed.reason === 'no_json' && reminded)) return build({ ...inner.message, content: raw.trim(), toolCalls: [] });
  const cutOff = inner.finishReason === 'length' ? ' Your reply was cut off at the output limit; keep it shorter.' : '';
  return { ok: false, protocolError: { reason: parsed.reason, error: parsed.error, feedback: `${parsed.error}${cutOff} ${REPLY_CONTRACT}` } };
}

/**
 * The n in `pj_<n>_<i>`: one past the assistant turns, and past every pj id already in the history,
 * which a compaction can leave with fewer turns than its ids count (ids must stay unique).
 */
function nextTurnNumber(messages: Message[]): number {
  let turn = messages.filter((message) => message.role === 'assistant').length + 1;
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const call of message.toolCalls) {
      const n = /^pj_(\d+)_\d+$/.exec(call.id)?.[1];
      if (n !== undefined) turn = Math.max(turn, Number(n) + 1);
    }
  }
  return turn;
}
