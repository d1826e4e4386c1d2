/**
 * A real HTTP server on 127.0.0.1 that speaks the Anthropic Messages API (POST /v1/messages,
 * SSE with `event:` lines, or one JSON message), replays scripted replies, records every request,
 * and rejects (HTTP 400 invalid_request_error, recorded as a violation) any request that breaks
 * the protocol. Faults: HTTP errors with headers, cut connections, an `event: error` mid-stream,
 * raw events, slow streams.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { ScriptedReply } from '../../src/providers/scripted.js';
import { jsonMessage, sseFrame, stopReasonOf, streamEvents, type PlannedReply, type PromptUsage, type SseEvent } from './anthropic-frames.js';
import { PromptCacheSimulator } from '../../bench/prompt-cache.mjs';
import { checkToolSearch } from './anthropic-tool-search.js';
import { checkAnthropicProtocol, type AnthropicRequestBody, type ProtocolState, type WireBlock } from './anthropic-protocol-check.js';
import { json, readBody, startSse, listenOnLoopback, sendRaw, type RawFault } from './http-replies.js';
import { buildSearchReply, checkSearchBlocks, checkSearchEcho, newWebSearchState, searchEvents, type WebSearchStep } from './anthropic-web-search.js';

export type AnthropicFault =
  | RawFault
  | { kind: 'http_error'; status: number; body?: unknown; headers?: Record<string, string> }
  /** Sends the reply's first `afterEvents` SSE events, then destroys the socket. */
  | { kind: 'cut'; reply: ScriptedReply; afterEvents: number }
  /** Sends the reply's first `afterEvents` events, then an `event: error` frame (HTTP 200 already sent). */
  | { kind: 'stream_error'; reply: ScriptedReply; afterEvents: number; error: { type: string; message: string } }
  /** Sends these events verbatim. */
  | { kind: 'raw_events'; events: SseEvent[] }
  /** Streams the reply with a pause before each event (for abort mid-stream). */
  | { kind: 'slow'; reply: ScriptedReply; eventDelayMs: number }
  /** Streams the reply's first `afterEvents` events, then nothing more, keeping the connection open. */
  | { kind: 'stall'; reply: ScriptedReply; afterEvents: number }
  /** Reads the request and never answers, not even the headers. */
  | { kind: 'silent' }
  /** Streams the reply's first `afterEvents` events, then one event whose data is not JSON, then ends. */
  | { kind: 'garbled'; reply: ScriptedReply; afterEvents: number }
  /** A reply whose thinking comes back redacted (`redacted_thinking` with opaque data). */
  | { kind: 'redacted'; reply: ScriptedReply; data: string }
  /** A reply whose web search ran server-side, with cited text (see anthropic-web-search.ts). */
  | WebSearchStep;

export type AnthropicStep = ScriptedReply | AnthropicFault | ((body: AnthropicRequestBody) => ScriptedReply | AnthropicFault);

export interface AnthropicServer {
  /** The base URL the SDK takes (it adds /v1/messages). */
  url: string;
  requests: AnthropicRequestBody[];
  /** Request headers, in order (to check the key is sent and never logged elsewhere). */
  headers: IncomingMessage['headers'][];
  violations: string[];
  /** The prompt cache this server simulates (bench/prompt-cache.mjs): what it bills each request. */
  cache: PromptCacheSimulator;
  readonly remaining: number;
  waitForRequest(n: number): Promise<AnthropicRequestBody>;
  close(): Promise<void>;
}

/** `refuseToolSearch`: answer like a proxy that does not know `defer_loading` and `tool_reference` (400). */
export async function startAnthropicServer(script: AnthropicStep[], options: { now?: () => number; refuseToolSearch?: boolean } = {}): Promise<AnthropicServer> {
  const cache = new PromptCacheSimulator(options.now ? { now: options.now } : {});
  const requests: AnthropicRequestBody[] = [];
  const headers: IncomingMessage['headers'][] = [];
  const violations: string[] = [];
  const state: ProtocolState = { signatures: new Map(), redacted: new Set(), previous: undefined };
  const search = newWebSearchState();
  /** The last reply's blocks when it searched: the next request must send them back as they were. */
  let searchSent: WireBlock[] = [];
  const waiters: Array<{ n: number; resolve: (body: AnthropicRequestBody) => void }> = [];
  let position = 0;
  let counter = 0;

  const plan = (reply: ScriptedReply, model: string): PlannedReply => {
    const thinking = reply.reasoning ? [{ type: 'thinking' as const, thinking: reply.reasoning, signature: `sig_${++counter}_${Buffer.from(model).toString('base64url')}` }] : [];
    for (const block of thinking) state.signatures.set(block.signature, { thinking: block.thinking, model });
    const rawArguments = (reply.toolCalls ?? []).map((call) => (typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments)));
    const toolUses = (reply.toolCalls ?? []).map((call, index) => ({ type: 'tool_use' as const, id: call.id ?? `toolu_${++counter}`, name: call.name, input: parseOr(rawArguments[index]!) }));
    return { reply, thinking, toolUses, rawArguments, stopReason: stopReasonOf(reply, toolUses.length > 0) };
  };

  const server = createServer(async (req, res) => {
    if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/messages') {
      return json(res, 404, apiError('not_found_error', `no route ${req.method} ${req.url}`));
    }
    const body = JSON.parse(await readBody(req)) as AnthropicRequestBody;
    requests.push(body);
    headers.push(req.headers);
    for (const waiter of waiters.filter((w) => w.n <= requests.length)) waiter.resolve(body);

    const problems = [...checkAnthropicProtocol(body, state), ...checkToolSearch(body, options.refuseToolSearch === true), ...checkSearchBlocks(body, search), ...checkSearchEcho(body, searchSent)];
    state.previous = undefined;
    searchSent = [];
    if (problems.length) {
      violations.push(...problems.map((problem) => `request ${requests.length}: ${problem}`));
      return json(res, 400, apiError('invalid_request_error', problems.join('; ')));
    }
    const stepDef = script[position];
    if (!stepDef) {
      violations.push(`request ${requests.length}: unexpected request, the script has ${script.length} steps`);
      return json(res, 500, apiError('api_error', 'script exhausted'));
    }
    position++;
    const step = typeof stepDef === 'function' ? stepDef(body) : stepDef;
    const billed = cache.anthropic(body);
    // The protocol check already refused what the cache rules refuse.
    const prompt = billed.ok ? (billed.wire as unknown as PromptUsage) : EMPTY_PROMPT;

    if (!('kind' in step)) {
      const planned = plan(step, body.model);
      state.previous = { toolUses: planned.toolUses, thinking: planned.thinking };
      if (!body.stream) return json(res, 200, jsonMessage(body.model, planned, prompt));
      startSse(res);
      for (const event of streamEvents(body.model, planned, prompt)) res.write(sseFrame(event));
      return res.end();
    }
    switch (step.kind) {
      case 'http_error':
        for (const [name, value] of Object.entries(step.headers ?? {})) res.setHeader(name, value);
        return json(res, step.status, step.body ?? apiError(ERROR_TYPES[step.status] ?? 'api_error', `HTTP ${step.status}`));
      case 'raw_events':
        startSse(res);
        for (const event of step.events) res.write(sseFrame(event));
        return res.end();
      case 'silent':
        return;
      case 'raw_bytes':
      case 'endless':
        return sendRaw(res, step);
      case 'web_search': {
        const built = buildSearchReply(step, search, () => ++counter);
        state.previous = { toolUses: built.toolUses, thinking: [] };
        searchSent = built.content;
        startSse(res);
        for (const event of searchEvents(body.model, built, prompt as unknown as Record<string, unknown>)) res.write(sseFrame(event));
        return res.end();
      }
      case 'cut':
      case 'stall':
      case 'garbled':
      case 'stream_error': {
        startSse(res);
        for (const event of streamEvents(body.model, plan(step.reply, body.model), prompt).slice(0, step.afterEvents)) res.write(sseFrame(event));
        if (step.kind === 'cut') return res.socket?.destroy();
        if (step.kind === 'stall') return;
        if (step.kind === 'garbled') return res.end('event: content_block_delta\ndata: {"type": "content_block_delta", "index": 0\n\n');
        res.write(sseFrame({ event: 'error', data: { type: 'error', error: step.error } }));
        return res.end();
      }
      case 'redacted': {
        const planned = plan({ ...step.reply, reasoning: undefined }, body.model);
        state.redacted.add(step.data);
        const events = streamEvents(body.model, planned, prompt).map((event) =>
          event.event === 'content_block_start' || event.event === 'content_block_delta' || event.event === 'content_block_stop' ? shiftIndex(event) : event,
        );
        const redacted = { type: 'content_block_start', index: 0, content_block: { type: 'redacted_thinking', data: step.data } };
        events.splice(2, 0, { event: 'content_block_start', data: redacted }, { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } });
        state.previous = { toolUses: planned.toolUses, thinking: [] };
        startSse(res);
        for (const event of events) res.write(sseFrame(event));
        return res.end();
      }
      case 'slow': {
        const planned = plan(step.reply, body.model);
        startSse(res);
        for (const event of streamEvents(body.model, planned, prompt)) {
          await new Promise((resolve) => setTimeout(resolve, step.eventDelayMs));
          if (res.destroyed) return;
          res.write(sseFrame(event));
        }
        state.previous = { toolUses: planned.toolUses, thinking: planned.thinking };
        return res.end();
      }
    }
  });

  const { origin, close } = await listenOnLoopback(server);
  return {
    url: `${origin}`,
    requests,
    headers,
    violations,
    cache,
    get remaining() {
      return script.length - position;
    },
    waitForRequest(n) {
      if (requests.length >= n) return Promise.resolve(requests[n - 1]!);
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    close,
  };
}

const EMPTY_PROMPT: PromptUsage = { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 } };

/** The error type the real API sends with each status. */
const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

function shiftIndex(event: SseEvent): SseEvent {
  const data = event.data as { index: number };
  return { event: event.event, data: { ...data, index: data.index + 1 } };
}

function parseOr(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return {};
  }
}

export function apiError(type: string, message: string) {
  return { type: 'error', error: { type, message } };
}

