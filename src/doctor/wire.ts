import { deadline } from './deadline.js';
import { boundedFetch } from '../contracts/bounded-fetch.js';

/** The probes' bytes are bounded like a provider's (bounded-fetch.ts). */
const fetch = boundedFetch('the endpoint');
import type { DoctorEndpoint, ProbeBounds } from './types.js';

/** A Chat Completions answer as it came off the wire: HTTP status, body or SSE chunks, timings. */
export interface WireReply {
  status: number;
  /** The JSON body of a non-streamed reply or of an error. */
  json?: Record<string, unknown>;
  /** The parsed `data:` frames of a streamed reply, with the ms since the request was sent. */
  chunks: Array<{ atMs: number; data: Record<string, unknown> }>;
  /** The error text of a failed request (HTTP or network), for the table. */
  error?: string;
  /** No whole reply within the time limit (`error` says how long that was). */
  timedOut?: true;
  totalMs: number;
}

/** The probes talk raw HTTP so they see what the adapter would smooth over. Never throws. */
export async function postChat(endpoint: DoctorEndpoint, body: Record<string, unknown>, bounds: ProbeBounds): Promise<WireReply> {
  const started = performance.now();
  const since = () => Math.round(performance.now() - started);
  const limit = deadline(bounds);
  try {
    const response = await fetch(`${endpoint.baseURL.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${endpoint.apiKey}` },
      body: JSON.stringify({ model: endpoint.model, ...body }),
      signal: limit.signal,
    });
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || !type.includes('event-stream')) {
      const text = await response.text();
      const json = parseObject(text);
      const error = response.ok ? undefined : errorText(json, text, response.status);
      return { status: response.status, ...(json ? { json } : {}), chunks: [], ...(error ? { error } : {}), totalMs: since() };
    }
    return { status: response.status, chunks: await readChunks(response, since), totalMs: since() };
  } catch (error) {
    if (limit.expired()) return { status: 0, chunks: [], error: limit.message, timedOut: true, totalMs: since() };
    return { status: 0, chunks: [], error: describeNetworkError(error), totalMs: since() };
  } finally {
    limit.clear();
  }
}

async function readChunks(response: Response, since: () => number): Promise<WireReply['chunks']> {
  const chunks: WireReply['chunks'] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const piece of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(piece, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = frame.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join('');
      const parsed = data && data !== '[DONE]' ? parseObject(data) : undefined;
      if (parsed) chunks.push({ atMs: since(), data: parsed });
    }
  }
  return chunks;
}

/** GET on the endpoint (e.g. `/models`): undefined when it is not there, not JSON, or not in time. */
export async function getJson(endpoint: DoctorEndpoint, path: string, bounds: ProbeBounds): Promise<Record<string, unknown> | undefined> {
  const limit = deadline(bounds);
  try {
    const response = await fetch(`${endpoint.baseURL.replace(/\/+$/, '')}${path}`, { headers: { authorization: `Bearer ${endpoint.apiKey}` }, signal: limit.signal });
    return response.ok ? parseObject(await response.text()) : undefined;
  } catch {
    return undefined;
  } finally {
    limit.clear();
  }
}

/** The first choice's delta of a chunk, if it has one. */
export function deltaOf(data: Record<string, unknown>): Record<string, unknown> | undefined {
  const choice = (data.choices as Array<Record<string, unknown>> | undefined)?.[0];
  return choice?.delta ? (choice.delta as Record<string, unknown>) : undefined;
}

/** The first choice's delta of each chunk, in order. */
export function deltas(reply: WireReply): Array<Record<string, unknown>> {
  return reply.chunks.flatMap(({ data }) => {
    const delta = deltaOf(data);
    return delta ? [delta] : [];
  });
}

/** The streamed text of a reply (content deltas joined), or a plain reply's message content. */
export function replyText(reply: WireReply): string {
  if (reply.chunks.length) return deltas(reply).map((delta) => (typeof delta.content === 'string' ? delta.content : '')).join('');
  const message = (reply.json?.choices as Array<{ message?: { content?: unknown } }> | undefined)?.[0]?.message;
  return typeof message?.content === 'string' ? message.content : '';
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function errorText(json: Record<string, unknown> | undefined, text: string, status: number): string {
  const error = json?.error as { message?: unknown } | string | undefined;
  const message = typeof error === 'string' ? error : typeof error?.message === 'string' ? error.message : text.slice(0, 200);
  return `HTTP ${status}${message ? `: ${message}` : ''}`;
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ? `${cause.code}: ${cause.message ?? ''}`.trim() : (error as Error).message;
}
