import type { AssistantMessage, Message, ToolCall } from '../../contracts/messages.js';
import type { ModelRequest, ModelResponse, Provider, ProviderEvent } from '../../contracts/provider.js';
import { ProviderError } from '../../contracts/provider-error.js';
import { promptJsonData, toPromptJsonHistory, withPromptJsonData } from './convert-history.js';
import { parseReply, type ParsedReply } from './parse-reply.js';
import { REPLY_CONTRACT } from './protocol-prompt.js';

/**
 * Tools over plain text, for models or endpoints without native tool calling (and to measure
 * what native calling buys). The inner provider gets no tool schemas and no tool messages; the
 * tools are described in the system prompt, and each reply is parsed back into tool calls or an
 * answer. A reply that cannot be read comes back as a `protocolError`, which the loop shows as a
 * `protocol_error` event and answers with a correction; it counts as a turn.
 *
 * Prose with no JSON at all gets one reminder; prose again right after that reminder is taken as
 * the answer (a model that will not speak the protocol should not burn the turn budget).
 */
export function promptJsonProvider(inner: Provider): Provider {
  return {
    name: `${inner.name}+prompt-json`,
    async *stream(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<ProviderEvent> {
      const innerRequest: ModelRequest = { ...request, messages: toPromptJsonHistory(request.messages, request.tools), tools: [] };
      let text = '';
      let innerResponse: ModelResponse | undefined;
      for await (const event of inner.stream(innerRequest, signal)) {
        // Text is held back until it is parsed: it is JSON, not something to show as it streams.
        if (event.type === 'text_delta') text += event.text;
        else if (event.type === 'response') innerResponse = event.response;
        else if (event.type === 'reasoning_delta') yield event;
      }
      if (!innerResponse) throw new ProviderError('stream_cut', `${inner.name}: the reply ended without a response.`);
      const raw = innerResponse.message.content || text;
      const response = readResponse(raw, innerResponse, request, inner.name);
      if (response.message.toolCalls.length) {
        for (const [index, call] of response.message.toolCalls.entries()) yield { type: 'tool_call_delta', index, id: call.id, name: call.name };
      } else if (!response.protocolError && response.message.content) {
        yield { type: 'text_delta', text: response.message.content };
      }
      yield { type: 'response', response };
    },
  };
}

function readResponse(raw: string, inner: ModelResponse, request: ModelRequest, innerName: string): ModelResponse {
  const base = { provider: innerName, model: request.model };
  const build = (message: AssistantMessage, extra: Partial<ModelResponse> = {}): ModelResponse => {
    const response: ModelResponse = { ...extra, message, finishReason: extra.finishReason ?? inner.finishReason };
    if (inner.usage) response.usage = inner.usage;
    return response;
  };
  // Calls the inner provider produced natively (it was offered none, but some servers improvise).
  if (inner.message.toolCalls.length) return build(withPromptJsonData(inner.message, { raw }, base), { finishReason: 'tool_calls' });

  const parsed = parseReply(raw);
  const noTools = request.tools.length === 0;
  if (parsed.kind === 'calls' && !noTools) {
    const turn = nextTurnNumber(request.messages);
    const toolCalls: ToolCall[] = parsed.calls.map((call, n) => ({ id: `pj_${turn}_${n}`, name: call.name, arguments: JSON.stringify(call.arguments) }));
    return build(withPromptJsonData({ ...inner.message, content: '', toolCalls }, { raw }, base), { finishReason: 'tool_calls' });
  }
  if (parsed.kind === 'answer') return build(withPromptJsonData({ ...inner.message, content: parsed.text, toolCalls: [] }, { raw }, base));
  if (noTools || (parsed.kind === 'invalid' && parsed.reason === 'no_json' && remindedAlready(request.messages))) {
    return build(withPromptJsonData({ ...inner.message, content: raw.trim(), toolCalls: [] }, { raw }, base));
  }
  const invalid = parsed as Extract<ParsedReply, { kind: 'invalid' }>;
  const cutOff = inner.finishReason === 'length' ? ' Your reply was cut off at the output limit; keep it shorter.' : '';
  const message = withPromptJsonData({ ...inner.message, content: raw, toolCalls: [] }, { raw, invalid: invalid.reason }, base);
  return build(message, { protocolError: { reason: invalid.reason, error: invalid.error, feedback: `${invalid.error}${cutOff} ${REPLY_CONTRACT}` } });
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

/** True when the last assistant turn was prose that already got the reminder. */
function remindedAlready(messages: Message[]): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === 'assistant') return promptJsonData(message)?.invalid === 'no_json';
  }
  return false;
}
