import { addUsage, type Usage } from '../../contracts/messages.js';
import type { ModelRequest, ModelResponse, Provider, ProviderEvent } from '../../contracts/provider.js';
import { ProviderError } from '../../contracts/provider-error.js';
import { estimateUsage } from '../shared/estimate-usage.js';
import { toPromptJsonHistory } from './convert-history.js';
import { readResponse } from './read-response.js';

/** Unreadable replies in a row before a request fails, when the request sets no limit. */
export const DEFAULT_PROTOCOL_ERROR_LIMIT = 4;

/**
 * Tools over plain text, for models or endpoints without native tool calling (and to measure
 * what native calling buys). The inner provider gets no tool schemas and no tool messages; the
 * tools are described in the system prompt, and each reply is parsed back into tool calls or an
 * answer.
 *
 * A reply that cannot be read is handled here, inside one `stream()` call: a `protocol_error`
 * event says why, and the model gets its reply back with the correction and is asked again. Only
 * the reply that could be read is returned, so the history (and a saved session) holds no
 * unreadable reply and no correction; the response's usage is the sum over every request made.
 * After `request.protocolErrorLimit` unreadable replies in a row it throws a ProviderError of kind
 * `unreadable_reply` carrying the usage spent. Prose with no JSON at all gets one reminder; prose
 * again right after it is taken as the answer.
 */
export function promptJsonProvider(inner: Provider): Provider {
  return {
    name: `${inner.name}+prompt-json`,
    async *stream(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<ProviderEvent> {
      const limit = request.protocolErrorLimit ?? DEFAULT_PROTOCOL_ERROR_LIMIT;
      const attempts: Attempt[] = [];
      let innerRequest: ModelRequest = { ...request, messages: toPromptJsonHistory(request.messages, request.tools), tools: [] };
      for (;;) {
        const { raw, response } = yield* askInner(inner, innerRequest, signal);
        attempts.push({ request: innerRequest, response });
        const previous = attempts.at(-2)?.unreadable;
        const read = readResponse(raw, response, request, inner.name, previous === 'no_json');
        if (read.ok) {
          yield* showReply(read.response);
          const usage = usageOf(attempts);
          yield { type: 'response', response: { ...read.response, ...(usage ? { usage } : {}) } };
          return;
        }
        const { reason, error, feedback } = read.protocolError;
        attempts.at(-1)!.unreadable = reason;
        yield { type: 'protocol_error', reason, error, feedback };
        if (attempts.length >= limit) {
          const usage = usageOf(attempts);
          throw new ProviderError('unreadable_reply', `${limit} replies in a row could not be read as the protocol asks (last: ${error})`, usage ? { usage } : {});
        }
        const retold = [...innerRequest.messages, { ...response.message, content: raw, toolCalls: [] }, { role: 'user' as const, content: feedback }];
        innerRequest = { ...innerRequest, messages: retold };
      }
    },
  };
}

interface Attempt {
  request: ModelRequest;
  response: ModelResponse;
  /** Why its reply could not be read, when it could not. */
  unreadable?: string;
}

/** One inner request. Text is held back until it is parsed: it is JSON, not something to show as it streams. */
async function* askInner(inner: Provider, request: ModelRequest, signal: AbortSignal | undefined): AsyncGenerator<ProviderEvent, { raw: string; response: ModelResponse }> {
  let text = '';
  for await (const event of inner.stream(request, signal)) {
    if (event.type === 'text_delta') text += event.text;
    else if (event.type === 'reasoning_delta') yield event;
    else if (event.type === 'response') return { raw: event.response.message.content || text, response: event.response };
  }
  throw new ProviderError('stream_cut', `${inner.name}: the reply ended without a response.`);
}

/** What a UI shows of a read reply: the calls by name as they are known, or the answer's text. */
function* showReply(response: ModelResponse): Generator<ProviderEvent> {
  const { toolCalls, content } = response.message;
  for (const [index, call] of toolCalls.entries()) yield { type: 'tool_call_delta', index, id: call.id, name: call.name };
  if (!toolCalls.length && content) yield { type: 'text_delta', text: content };
}

/**
 * One request's usage as reported (undefined: the loop estimates it, as for any provider); several
 * are summed, each estimated when its server reported none, so re-asks count against the budget.
 */
function usageOf(attempts: Attempt[]): Usage | undefined {
  if (attempts.length === 1) return attempts[0]!.response.usage;
  return attempts.map(({ request, response }) => response.usage ?? estimateUsage(request, response.message)).reduce(addUsage);
}
