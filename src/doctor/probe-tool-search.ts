import type { Provider } from '../contracts/provider.js';
import { errorText } from '../contracts/error-text.js';
import { deadline } from './deadline.js';
import { WEATHER_TOOL } from './probe-requests.js';
import type { ProbeBounds, ProbeResult } from './types.js';

/**
 * Whether an Anthropic endpoint takes deferred tools (`defer_loading`) and a tool search's result
 * as `tool_reference` blocks, through the adapter a run uses: a conversation where a search found
 * the weather tool, sent with that tool deferred. A proxy that does not know the format refuses it
 * (a 400); tool search then uses its bridge there (see docs/mcp-and-hooks.md#tool-search).
 */
export async function probeToolSearch(provider: Provider, model: string, bounds: ProbeBounds): Promise<ProbeResult> {
  const label = 'deferred tools (defer_loading, tool_reference)';
  const limit = deadline(bounds);
  const weather = WEATHER_TOOL.function;
  try {
    for await (const event of provider.stream(
      {
        model,
        messages: [
          { role: 'user', content: 'Find the weather tool, then say which tools you have.' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'toolu_probe_search', name: 'tool_search', arguments: '{"query":"weather"}' }] },
          { role: 'tool', toolCallId: 'toolu_probe_search', name: 'tool_search', content: `1 tool loaded: ${weather.name}`, isError: false, toolReferences: [weather.name] },
        ],
        tools: [
          { name: 'tool_search', description: 'Finds tools by words.', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
          { name: weather.name, description: weather.description, parameters: weather.parameters, deferLoading: true },
        ],
        temperature: 0,
        maxTokens: 64,
      },
      limit.signal,
    )) {
      if (event.type === 'response') return { id: 'tool-search', label, status: 'pass', detail: 'accepted: tool search can load deferred tools natively', data: { native: true } };
    }
    return { id: 'tool-search', label, status: 'fail', detail: 'the stream ended without a response' };
  } catch (error) {
    if (limit.expired()) return { id: 'tool-search', label, status: 'fail', detail: limit.message };
    return { id: 'tool-search', label, status: 'warn', detail: `refused (${errorText(error).slice(0, 160)}): tool search uses its bridge here`, data: { native: false } };
  } finally {
    limit.clear();
  }
}
