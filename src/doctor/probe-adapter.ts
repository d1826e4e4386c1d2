import type { Provider } from '../contracts/provider.js';
import { deadline } from './deadline.js';
import type { ProbeBounds, ProbeResult } from './types.js';
import { ONE_CALL_PROMPT, WEATHER_TOOL } from './probe-requests.js';
import { validArguments } from './analyse-tool-stream.js';

/**
 * The tool-call request through the adapter a run uses: what the loop would get, after the
 * adapter's repairs (calls recovered from text, fragments without index, refused fields dropped).
 */
export async function probeAdapter(provider: Provider, model: string, bounds: ProbeBounds): Promise<ProbeResult> {
  const label = 'tool call as a run sees it';
  const started = performance.now();
  let firstMs: number | undefined;
  const limit = deadline(bounds);
  try {
    for await (const event of provider.stream(
      { model, messages: [{ role: 'user', content: ONE_CALL_PROMPT }], tools: [{ name: WEATHER_TOOL.function.name, description: WEATHER_TOOL.function.description, parameters: WEATHER_TOOL.function.parameters }], temperature: 0 },
      limit.signal,
    )) {
      firstMs ??= Math.round(performance.now() - started);
      if (event.type !== 'response') continue;
      const call = event.response.message.toolCalls[0];
      if (!call || !validArguments(call.arguments)) return { id: 'adapter', label, status: 'fail', detail: call ? `malformed: ${call.arguments.slice(0, 80)}` : 'no call: the model answered in text' };
      const recovered = event.response.leakedToolCalls ? ' (recovered from text)' : '';
      return { id: 'adapter', label, status: recovered ? 'warn' : 'pass', detail: `${call.name}(${call.arguments})${recovered}; first event after ${firstMs} ms`, data: { firstEventMs: firstMs } };
    }
    return { id: 'adapter', label, status: 'fail', detail: 'the stream ended without a response' };
  } catch (error) {
    return { id: 'adapter', label, status: 'fail', detail: limit.expired() ? limit.message : (error as Error).message };
  } finally {
    limit.clear();
  }
}
