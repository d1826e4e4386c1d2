import { COUNT_PROMPT, PING_PROMPT, user } from './probe-requests.js';
import type { DoctorEndpoint, ProbeBounds, ProbeResult } from './types.js';
import { deltaOf, postChat, replyText } from './wire.js';

/** One plain request: is the server there, does it take the key, does it know the model. */
export async function probeReach(endpoint: DoctorEndpoint, bounds: ProbeBounds): Promise<ProbeResult> {
  const label = 'reachable and authenticated';
  const reply = await postChat(endpoint, { messages: user(PING_PROMPT), stream: false }, bounds);
  if (reply.status === 200) return { id: 'reach', label, status: 'pass', detail: `HTTP 200 in ${reply.totalMs} ms`, data: { ms: reply.totalMs } };
  const why =
    reply.timedOut ? `connected, but ${reply.error}`
    : reply.status === 0 ? `cannot connect (${reply.error})`
    : reply.status === 401 || reply.status === 403 ? `the key was refused (${reply.error})`
    : reply.status === 404 ? `not found: check the base URL and the model name (${reply.error})`
    : (reply.error ?? `HTTP ${reply.status}`);
  return { id: 'reach', label, status: 'fail', detail: why, data: { status: reply.status } };
}

/** Time to the first streamed token, and output speed over a short counted reply. */
export async function probeLatency(endpoint: DoctorEndpoint, bounds: ProbeBounds): Promise<ProbeResult> {
  const label = 'latency and speed';
  const reply = await postChat(endpoint, { messages: user(COUNT_PROMPT), stream: true }, bounds);
  if (reply.status !== 200) return { id: 'latency', label, status: 'fail', detail: reply.error ?? `HTTP ${reply.status}` };
  if (!reply.chunks.length) return { id: 'latency', label, status: 'warn', detail: 'asked to stream, the server answered with one JSON body (the adapter copes)' };
  const first = reply.chunks.find(({ data }) => {
    const content = deltaOf(data)?.content;
    return typeof content === 'string' && content !== '';
  });
  const firstMs = first?.atMs ?? reply.totalMs;
  const tokens = Math.max(1, Math.round(replyText(reply).length / 4));
  const seconds = Math.max(0.001, (reply.totalMs - firstMs) / 1000);
  const perSecond = Math.round(tokens / seconds);
  return {
    id: 'latency',
    label,
    status: 'pass',
    detail: `first token after ${firstMs} ms; ≈${perSecond} tokens/s`,
    data: { firstTokenMs: firstMs, tokensPerSecond: perSecond },
  };
}
