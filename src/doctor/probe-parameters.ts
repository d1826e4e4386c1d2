import { OPTIONAL_PARAMETERS } from '../providers/openai/unsupported-parameters.js';
import { PING_PROMPT, user, WEATHER_TOOL } from './probe-requests.js';
import type { DoctorEndpoint, ProbeBounds, ProbeResult } from './types.js';
import { postChat } from './wire.js';

/** Each optional field the adapter sends, alone on an otherwise plain request: which ones a 400 refuses. */
export async function probeParameters(endpoint: DoctorEndpoint, bounds: ProbeBounds): Promise<ProbeResult> {
  const label = 'parameters rejected';
  const bodies: Record<(typeof OPTIONAL_PARAMETERS)[number], Record<string, unknown>> = {
    stream_options: { stream: true, stream_options: { include_usage: true } },
    parallel_tool_calls: { tools: [WEATHER_TOOL], parallel_tool_calls: true },
    temperature: { temperature: 0 },
  };
  const rejected: string[] = [];
  for (const name of OPTIONAL_PARAMETERS) {
    const reply = await postChat(endpoint, { messages: user(PING_PROMPT), ...bodies[name] }, bounds);
    if (reply.status === 400 || reply.status === 422) rejected.push(name);
  }
  if (!rejected.length) return { id: 'parameters', label, status: 'pass', detail: `none (${OPTIONAL_PARAMETERS.join(', ')} accepted)`, data: { rejected } };
  return {
    id: 'parameters',
    label,
    status: 'warn',
    detail: `${rejected.join(', ')} (the adapter drops a field after a 400 that names it; each run pays one failed request)`,
    data: { rejected },
  };
}
