import { analyseToolReply, validArguments, type ToolStreamShape } from './analyse-tool-stream.js';
import { ONE_CALL_PROMPT, TWO_CALLS_PROMPT, user, WEATHER_TOOL } from './probe-requests.js';
import type { DoctorEndpoint, ProbeBounds, ProbeResult } from './types.js';
import { postChat } from './wire.js';

export interface ToolProbes {
  results: ProbeResult[];
  /** The one-call reply, for the reasoning probe's follow-up. */
  shape?: ToolStreamShape;
}

/** One streamed request offering a tool: native calls, how arguments stream, markup leaked into text. */
export async function probeTools(endpoint: DoctorEndpoint, bounds: ProbeBounds): Promise<ToolProbes> {
  const reply = await postChat(endpoint, { messages: user(ONE_CALL_PROMPT), tools: [WEATHER_TOOL], stream: true }, bounds);
  if (reply.status !== 200) {
    const detail = `tools refused: ${reply.error ?? `HTTP ${reply.status}`}`;
    return { results: [{ id: 'tools', label: 'native tool calls', status: 'fail', detail }] };
  }
  const shape = analyseToolReply(reply);
  return { results: [nativeCalls(shape), streamedArguments(shape), leakedCalls(shape)], shape };
}

function nativeCalls(shape: ToolStreamShape): ProbeResult {
  const label = 'native tool calls';
  const call = shape.calls[0];
  if (!call && shape.leakedMarkup.length) return { id: 'tools', label, status: 'warn', detail: 'none: the call came as text (see leaked)' };
  if (!call) return { id: 'tools', label, status: 'fail', detail: 'none: the model answered in text' };
  if (call.name !== 'get_weather' || !validArguments(call.arguments)) {
    return { id: 'tools', label, status: 'fail', detail: `malformed: ${call.name}(${call.arguments.slice(0, 80)})` };
  }
  return { id: 'tools', label, status: 'pass', detail: `${call.name}(${call.arguments})` };
}

function streamedArguments(shape: ToolStreamShape): ProbeResult {
  const label = 'streamed arguments';
  if (!shape.calls.length) return { id: 'arguments', label, status: 'skip', detail: 'no native call to look at' };
  const pieces = shape.fragments[0] ?? 0;
  const how = pieces <= 1 ? 'whole in one chunk' : `fragmented (${pieces} chunks)`;
  if (shape.withoutIndex) return { id: 'arguments', label, status: 'warn', detail: `${how}, without index (the adapter goes by id and name)`, data: { withoutIndex: true, fragments: pieces } };
  return { id: 'arguments', label, status: 'pass', detail: `${how}, indexed`, data: { withoutIndex: false, fragments: pieces } };
}

function leakedCalls(shape: ToolStreamShape): ProbeResult {
  const label = 'tool calls leaked into text';
  if (!shape.leakedMarkup.length) return { id: 'leaked', label, status: 'pass', detail: 'none' };
  const markup = shape.leakedMarkup.map((marker) => (marker === '<function=' ? '<function=…>' : `${marker}…`)).join(', ');
  return {
    id: 'leaked',
    label,
    status: 'warn',
    detail: `${markup} in the text: the server's tool parser is off (the adapter recovers them; better: fix the server's chat template or tool parser)`,
    data: { markup: shape.leakedMarkup },
  };
}

/** Two calls asked for in one reply. Not having them is a warning: the loop works, one call a turn. */
export async function probeParallel(endpoint: DoctorEndpoint, bounds: ProbeBounds): Promise<ProbeResult> {
  const label = 'parallel calls';
  const reply = await postChat(endpoint, { messages: user(TWO_CALLS_PROMPT), tools: [WEATHER_TOOL], stream: true }, bounds);
  if (reply.status !== 200) return { id: 'parallel', label, status: 'fail', detail: reply.error ?? `HTTP ${reply.status}` };
  const calls = analyseToolReply(reply).calls.filter((call) => validArguments(call.arguments));
  if (calls.length >= 2) return { id: 'parallel', label, status: 'pass', detail: `${calls.length} calls in one reply`, data: { calls: calls.length } };
  return { id: 'parallel', label, status: 'warn', detail: `${calls.length} call(s) in one reply: expect more turns`, data: { calls: calls.length } };
}
