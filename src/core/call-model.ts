import type { AgentEvent } from '../contracts/events.js';
import type { Message } from '../contracts/messages.js';
import type { ModelRequest, ModelResponse } from '../contracts/provider.js';
import { errorText } from '../contracts/error-text.js';
import { isAbortError, ProviderError } from '../contracts/provider-error.js';
import { estimateUsage } from '../providers/shared/estimate-usage.js';
import type { AgentOptions } from './agent-options.js';
import type { Stop } from './brakes.js';
import type { ModelStreamEvent } from './request-with-retry.js';
import type { RunTotals } from './run-totals.js';
import { streamReply, type ReplyStream } from './stream-reply.js';
import type { CacheWatch } from './cache-watch.js';
import type { ContextChanges } from './explain-miss.js';

export interface ModelCallOptions extends Omit<ReplyStream, 'show'> {
  model: string;
  turn: number;
  totals: RunTotals;
  /** The request for a history; built again when an overflow shrinks the history. */
  request: (messages: Message[]) => ModelRequest;
  onContextOverflow?: AgentOptions['onContextOverflow'];
  /** Told each tool name as the reply starts a call to it (the registry starts loading its code). */
  onToolNamed?: (name: string) => void;
  /** Explains prompt-cache misses; told what the context policy changed before this request. */
  cache?: { watch: CacheWatch; changes: ContextChanges };
}

/** The reply, or the stop a failure calls for; `messages` is the history as it is now (an overflow may have shrunk it). */
export type ModelCall = { messages: Message[] } & ({ ok: true; response: ModelResponse } | { ok: false; stop: Stop });

/**
 * One turn's request: streamed with retries, its events passed on with the turn, its usage counted
 * (estimated when the server reports none). A prompt rejected as too long is handed to
 * `onContextOverflow` once and sent again; any other failure becomes the stop it calls for.
 */
export async function* callModel(history: Message[], options: ModelCallOptions): AsyncGenerator<AgentEvent, ModelCall> {
  const { turn, totals, signal } = options;
  // What streamed back before an abort: a cut-off request was sent (and billed) all the same.
  let partial = '';
  const show = (event: ModelStreamEvent) => {
    if (event.type === 'text_delta' || event.type === 'reasoning_delta') partial += event.text;
    if (event.type === 'retry') partial = '';
    if (event.type === 'tool_call_delta' && event.name) options.onToolNamed?.(event.name);
    return turnEvent(event, turn, totals);
  };
  let messages = history;
  let overflowHandled = false;
  for (;;) {
    const request = options.request(messages);
    options.cache?.watch.sending(request, options.cache.changes);
    let response: ModelResponse;
    try {
      response = yield* streamReply(request, { ...options, show });
    } catch (error) {
      if (error instanceof ProviderError && error.usage) yield totals.add(turn, error.usage);
      if (signal.aborted || isAbortError(error)) {
        yield totals.add(turn, estimateUsage(request, { role: 'assistant', content: partial, toolCalls: [] }));
        return { ok: false, stop: { reason: 'aborted' }, messages };
      }
      if (overflowHandled || !options.onContextOverflow || !(error instanceof ProviderError) || error.kind !== 'context_length') {
        return { ok: false, stop: failureStop(error), messages };
      }
      overflowHandled = true;
      const shrunk = await options.onContextOverflow(messages, { turn, model: options.model, signal, error });
      messages = shrunk.messages;
      yield* totals.contextEvents(shrunk.events, turn);
      if (options.cache) options.cache.changes = { ...options.cache.changes, ...contextChanges(shrunk.events) };
      continue;
    }
    const usage = response.usage ?? estimateUsage(request, response.message);
    const seen = options.cache?.watch.received(usage, turn);
    yield totals.add(turn, usage, seen?.cache);
    if (seen?.warning) yield seen.warning;
    return { ok: true, response, messages };
  }
}

/** Which of the context policy's events changed earlier messages. */
export function contextChanges(events: readonly AgentEvent[] | undefined): ContextChanges {
  const changes: ContextChanges = {};
  for (const event of events ?? []) {
    if (event.type === 'compaction') changes.compaction = true;
    if (event.type === 'context_rewrite') changes.stubbing = true;
  }
  return changes;
}

function turnEvent(event: ModelStreamEvent, turn: number, totals: RunTotals): AgentEvent {
  if (event.type === 'retry') return event;
  if (event.type === 'protocol_error') return { type: 'protocol_error', turn, reason: event.reason, error: event.error, count: totals.addProtocolError() };
  return { ...event, turn };
}

/** Replies the provider could not read, several in a row, are a repeated failure; anything else a provider error. */
function failureStop(error: unknown): Stop {
  if (error instanceof ProviderError && error.kind === 'unreadable_reply') return { reason: 'repeated_call', error: error.message };
  return { reason: 'provider_error', error: error instanceof ProviderError ? error.message : errorText(error) };
}
