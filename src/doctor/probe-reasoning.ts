import type { ToolStreamShape } from './analyse-tool-stream.js';
import { ONE_CALL_PROMPT, WEATHER_TOOL } from './probe-requests.js';
import type { DoctorEndpoint, ProbeBounds, ProbeResult } from './types.js';
import { postChat } from './wire.js';

/**
 * Reasoning fields in the tool-call reply, and whether the server demands them back: the call is
 * answered in a history that leaves the reasoning out, as a preset without replayReasoning does.
 */
export async function probeReasoning(endpoint: DoctorEndpoint, shape: ToolStreamShape | undefined, bounds: ProbeBounds): Promise<ProbeResult> {
  const label = 'reasoning fields';
  if (!shape?.reasoningField) return { id: 'reasoning', label, status: 'pass', detail: 'none sent', data: { field: null } };
  const call = shape.calls[0];
  if (!call) return { id: 'reasoning', label, status: 'pass', detail: `${shape.reasoningField} (no call to answer, so not tested whether it must go back)`, data: { field: shape.reasoningField } };
  const messages = [
    { role: 'user', content: ONE_CALL_PROMPT },
    { role: 'assistant', content: shape.text, tool_calls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }] },
    { role: 'tool', tool_call_id: call.id, content: 'Sunny, 21 °C.' },
  ];
  const reply = await postChat(endpoint, { messages, tools: [WEATHER_TOOL], stream: false }, bounds);
  if (reply.status === 200) {
    return { id: 'reasoning', label, status: 'pass', detail: `${shape.reasoningField}; not demanded back`, data: { field: shape.reasoningField, demandsBack: false } };
  }
  return {
    id: 'reasoning',
    label,
    status: 'warn',
    detail: `${shape.reasoningField}; demanded back (${reply.error ?? `HTTP ${reply.status}`}): use a preset that replays reasoning`,
    data: { field: shape.reasoningField, demandsBack: true },
  };
}
