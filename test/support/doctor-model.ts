/**
 * A scripted model that answers every doctor probe like a good local server would, with one
 * quirk switched on at a time, for the chat server (`startChatServer(doctorScript(quirk), { checkEcho: false })`).
 */
import type { ScriptedReply } from '../../src/providers/scripted.js';
import type { ChatRequestBody, Fault, ServerStep } from './chat-server.js';

export type DoctorQuirk = 'none' | 'no-index' | 'leaked' | 'rejects-parallel' | 'truncates' | 'truncates-6000' | 'demands-reasoning';

/** The truncating servers keep this many characters of prompt (≈4,096 or 6,000 tokens), dropping the start. */
const KEPT_CHARS: Partial<Record<DoctorQuirk, number>> = { truncates: 4096 * 4, 'truncates-6000': 6000 * 4 };

export function doctorReply(quirk: DoctorQuirk, body: ChatRequestBody): ScriptedReply | Fault {
  if (quirk === 'rejects-parallel' && body.parallel_tool_calls !== undefined) {
    return { kind: 'http_error', status: 400, body: { error: { message: 'Unrecognized request argument supplied: parallel_tool_calls' } } };
  }
  if (quirk === 'demands-reasoning') {
    // DeepSeek-reasoner's (and Kimi's) answer to a tool call sent back without the reasoning that came with it.
    const index = body.messages.findIndex((message) => message.role === 'assistant' && message.tool_calls?.length && typeof message.reasoning_content !== 'string');
    if (index >= 0) {
      return { kind: 'http_error', status: 400, body: { error: { message: `Missing \`reasoning_content\` field in the assistant message at message index ${index}.`, type: 'invalid_request_error' } } };
    }
  }
  const last = body.messages.at(-1)!;
  const prompt = typeof last.content === 'string' ? last.content : '';
  if (!body.tools?.length || last.role === 'tool') return { text: textAnswer(quirk, prompt), ...(quirk === 'demands-reasoning' ? { reasoning: 'Answering.' } : {}) };
  const cities = prompt.includes('twice') ? ['Paris', 'Tokyo'] : ['Paris'];
  if (quirk === 'leaked') return { text: cities.map((city) => `<tool_call>{"name": "get_weather", "arguments": {"city": "${city}"}}</tool_call>`).join('\n') };
  if (quirk === 'no-index') return withoutIndex(body.model, cities);
  const toolCalls = cities.map((city) => ({ name: 'get_weather', arguments: { city } }));
  return quirk === 'demands-reasoning' ? { reasoning: 'The user wants the weather, so I call get_weather.', toolCalls } : { toolCalls };
}

export function doctorScript(quirk: DoctorQuirk, steps = 200): ServerStep[] {
  return Array.from({ length: steps }, () => (body: ChatRequestBody) => doctorReply(quirk, body));
}

function textAnswer(quirk: DoctorQuirk, prompt: string): string {
  if (prompt.includes('passphrase')) {
    const kept = KEPT_CHARS[quirk];
    const seen = kept !== undefined ? prompt.slice(-kept) : prompt;
    return /The passphrase is (\S+)\./.exec(seen)?.[1] ?? 'I cannot see a passphrase.';
  }
  if (prompt.startsWith('Count from 1 to 40')) return Array.from({ length: 40 }, (_, i) => i + 1).join(' ');
  return 'OK';
}

/** Tool-call fragments with ids and names but no `index`, arguments split in two. */
function withoutIndex(model: string, cities: string[]): Fault {
  const chunk = (delta: unknown, finish: string | null = null) => ({ id: 'chatcmpl-q', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] });
  const chunks = [chunk({ role: 'assistant', content: '' })];
  cities.forEach((city, n) => {
    chunks.push(chunk({ tool_calls: [{ id: `call_q${n}`, type: 'function', function: { name: 'get_weather', arguments: '' } }] }));
    chunks.push(chunk({ tool_calls: [{ function: { arguments: '{"city": ' } }] }));
    chunks.push(chunk({ tool_calls: [{ function: { arguments: `"${city}"}` } }] }));
  });
  chunks.push(chunk({}, 'tool_calls'));
  return { kind: 'raw_chunks', chunks };
}
