import type { AgentEvent } from '../contracts/events.js';
import type { ModelRequest } from '../contracts/provider.js';
import { estimateUsage } from '../providers/shared/estimate-usage.js';
import type { RunTotals } from './run-totals.js';
import { streamReply, type ReplyStream } from './stream-reply.js';

export const HANDOFF_REQUEST =
  'You have reached the turn limit for this run and cannot call tools any more. ' +
  'Reply with a short hand-off for the user: what is done, what remains, and the next step.';

/**
 * At the turn limit, one more request without tools: the model's own summary of what is done and
 * what remains. Only retries are shown while it streams; the text comes as one `handoff` event.
 * Undefined when the request fails or the reply is empty: the run stops at its limit either way.
 */
export async function* requestHandoff(
  request: ModelRequest,
  options: Omit<ReplyStream, 'show'> & { turn: number; totals: RunTotals },
): AsyncGenerator<AgentEvent, string | undefined> {
  const handoffRequest: ModelRequest = { ...request, messages: [...request.messages, { role: 'user', content: HANDOFF_REQUEST }], tools: [] };
  try {
    const response = yield* streamReply(handoffRequest, { ...options, show: (event) => (event.type === 'retry' ? event : undefined) });
    yield options.totals.add(options.turn, response.usage ?? estimateUsage(handoffRequest, response.message));
    const text = response.message.content.trim();
    if (!text) return undefined;
    yield { type: 'handoff', text };
    return text;
  } catch {
    return undefined;
  }
}
