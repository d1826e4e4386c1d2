/**
 * A real HTTP server on 127.0.0.1 that speaks the Chat Completions wire protocol (SSE streaming
 * with fragmented tool-call deltas, and plain JSON), replays scripted replies, records every
 * request, and rejects (HTTP 400, recorded as a violation) any request that breaks the protocol.
 */
import { PromptCacheSimulator } from '../../bench/prompt-cache.mjs';
import { checkDataUrl } from './image-check.js';
import { createServer } from 'node:http';
import type { ScriptedReply } from '../../src/providers/scripted.js';
import { json, readBody, startSse, listenOnLoopback, sendRaw, type RawFault } from './http-replies.js';

export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatRequestBody {
  model: string;
  messages: Array<{ role: string; content?: unknown; tool_calls?: WireToolCall[]; tool_call_id?: string; [key: string]: unknown }>;
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
  stream?: boolean;
  temperature?: number;
  [key: string]: unknown;
}

/** Faults and raw frames, for the misbehaviour scenarios. */
export type Fault =
  | RawFault
  | { kind: 'http_error'; status: number; body?: unknown; headers?: Record<string, string> }
  /** Sends the reply's first `afterChunks` frames, then destroys the socket. */
  | { kind: 'cut'; reply: ScriptedReply; afterChunks: number }
  /** Sends these chunk objects verbatim as SSE frames (then [DONE] unless `noDone`). */
  | { kind: 'raw_chunks'; chunks: unknown[]; noDone?: boolean }
  /** Streams the reply with a pause before each frame (for abort mid-stream). */
  | { kind: 'slow'; reply: ScriptedReply; frameDelayMs: number }
  /** Sends the reply's first `afterChunks` frames, then nothing more, keeping the connection open. */
  | { kind: 'stall'; reply: ScriptedReply; afterChunks: number }
  /** Streams the reply, stopping before frame `after` of each gate until its `release` resolves (a turn caught mid-stream). */
  | { kind: 'gated'; reply: ScriptedReply; gates: Array<{ after: number; release: Promise<unknown> }> }
  /** Reads the request and never answers, not even the headers. */
  | { kind: 'silent' }
  /** Sends the reply's first `afterChunks` frames, then one frame that is not JSON, then ends. */
  | { kind: 'garbled'; reply: ScriptedReply; afterChunks: number };

export type ServerStep = ScriptedReply | Fault | ((body: ChatRequestBody) => ScriptedReply | Fault);

export interface ChatServer {
  url: string;
  /** Every request body received, in order. */
  requests: ChatRequestBody[];
  /** Protocol violations found in requests (each also answered with HTTP 400). */
  violations: string[];
  /** The prompt cache this server simulates: what it bills each request. */
  cache: PromptCacheSimulator;
  /** Script steps not yet consumed. */
  readonly remaining: number;
  /** Resolves when the n-th request (1-based) has arrived. */
  waitForRequest(n: number): Promise<ChatRequestBody>;
  /** Requests (1-based) whose client hung up before the reply was complete (an aborted run). */
  hungUp: number[];
  /** Resolves when a client hangs up on a reply in progress (see `hungUp`). */
  waitForHangUp(): Promise<number>;
  /** The client crashed mid-turn: the calls of the last reply need not be echoed any more. */
  forgetCallsInFlight(): void;
  close(): Promise<void>;
}

export interface ChatServerOptions {
  /** Check that calls sent are echoed in the next request (default true); off for clients whose requests stand alone (doctor's probes). */
  checkEcho?: boolean;
  /**
   * Tells interleaved conversations apart (several agents on one server): calls must be echoed by
   * the next request of the same conversation. Default: one conversation.
   */
  conversationOf?: (body: ChatRequestBody) => string;
  /** Whose prompt-cache rules and usage fields to simulate (bench/prompt-cache.mjs); default OpenAI's. */
  cache?: 'openai' | 'deepseek';
  /** The simulated cache's clock (default Date.now). */
  now?: () => number;
}

export async function startChatServer(script: ServerStep[], options: ChatServerOptions = {}): Promise<ChatServer> {
  const conversationOf = options.conversationOf ?? (() => '');
  const cache = new PromptCacheSimulator(options.now ? { now: options.now } : {});
  const dialect = options.cache ?? 'openai';
  const requests: ChatRequestBody[] = [];
  const violations: string[] = [];
  // Calls sent in the previous reply: the next request must echo them verbatim.
  const pendingEcho = new Map<string, WireToolCall[]>();
  const waiters: Array<{ n: number; resolve: (body: ChatRequestBody) => void }> = [];
  const hungUp: number[] = [];
  const hangUpWaiters: Array<(n: number) => void> = [];
  let position = 0;
  let callCounter = 0;

  const server = createServer(async (req, res) => {
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      return json(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
    }
    const body = JSON.parse(await readBody(req)) as ChatRequestBody;
    requests.push(body);
    const number = requests.length;
    res.on('close', () => {
      if (res.writableEnded) return;
      hungUp.push(number);
      for (const waiter of hangUpWaiters.splice(0)) waiter(number);
    });
    for (const waiter of waiters.filter((w) => w.n <= requests.length)) waiter.resolve(body);

    const conversation = conversationOf(body);
    const problems = checkProtocol(body, options.checkEcho === false ? [] : pendingEcho.get(conversation) ?? []);
    pendingEcho.delete(conversation);
    if (problems.length) {
      violations.push(...problems.map((p) => `request ${requests.length}: ${p}`));
      return json(res, 400, { error: { message: `protocol violation: ${problems.join('; ')}`, type: 'invalid_request_error' } });
    }

    const stepDef = script[position];
    if (!stepDef) {
      violations.push(`request ${requests.length}: unexpected request, the script has ${script.length} steps`);
      return json(res, 500, { error: { message: 'script exhausted' } });
    }
    position++;
    const step = typeof stepDef === 'function' ? stepDef(body) : stepDef;
    const billed = cache.bill(dialect, body as unknown as Record<string, unknown>);
    const prompt = billed.ok ? billed.wire : {};

    if ('kind' in step) {
      if (step.kind === 'http_error') {
        for (const [name, value] of Object.entries(step.headers ?? {})) res.setHeader(name, value);
        return json(res, step.status, step.body ?? { error: { message: `HTTP ${step.status}` } });
      }
      if (step.kind === 'silent') return;
      if (step.kind === 'raw_bytes' || step.kind === 'endless') return sendRaw(res, step);
      if (step.kind === 'raw_chunks') {
        startSse(res);
        for (const chunk of step.chunks) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
        if (!step.noDone) res.write('data: [DONE]\n\n');
        return res.end();
      }
      const calls = withIds(step.reply, () => `call_${++callCounter}`);
      const frames = replyFrames(body.model, step.reply, calls, body, prompt);
      startSse(res);
      if (step.kind === 'cut' || step.kind === 'stall' || step.kind === 'garbled') {
        for (const frame of frames.slice(0, step.afterChunks)) res.write(frame);
        if (step.kind === 'garbled') return res.end('data: {"choices": [{"delta": {"content": "x"}\n\n');
        return step.kind === 'cut' ? res.socket?.destroy() : undefined;
      }
      if (step.kind === 'gated') {
        for (const [index, frame] of frames.entries()) {
          for (const gate of step.gates) if (gate.after === index) await gate.release;
          if (res.destroyed) return;
          res.write(frame);
        }
        pendingEcho.set(conversation, calls);
        return res.end();
      }
      for (const frame of frames) {
        await new Promise((resolve) => setTimeout(resolve, step.frameDelayMs));
        if (res.destroyed) return;
        res.write(frame);
      }
      pendingEcho.set(conversation, calls);
      return res.end();
    }

    const calls = withIds(step, () => `call_${++callCounter}`);
    pendingEcho.set(conversation, calls);
    if (body.stream) {
      startSse(res);
      for (const frame of replyFrames(body.model, step, calls, body, prompt)) res.write(frame);
      return res.end();
    }
    return json(res, 200, completion(body.model, step, calls, prompt));
  });

  const { origin, close } = await listenOnLoopback(server);
  return {
    url: `${origin}/v1`,
    requests,
    violations,
    cache,
    hungUp,
    waitForHangUp() {
      if (hungUp.length) return Promise.resolve(hungUp[0]!);
      return new Promise((resolve) => hangUpWaiters.push(resolve));
    },
    get remaining() {
      return script.length - position;
    },
    waitForRequest(n) {
      if (requests.length >= n) return Promise.resolve(requests[n - 1]!);
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
    forgetCallsInFlight() {
      pendingEcho.clear();
    },
    close,
  };
}

function withIds(reply: ScriptedReply, nextId: () => string): WireToolCall[] {
  return (reply.toolCalls ?? []).map((call) => ({
    id: call.id ?? nextId(),
    type: 'function',
    function: { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) },
  }));
}

function finishReason(reply: ScriptedReply, calls: WireToolCall[]): string {
  return reply.finishReason ?? (calls.length ? 'tool_calls' : 'stop');
}

/**
 * The reply's usage: the simulated prompt usage in the dialect's fields, unless the script set
 * its own input figures (then cached = `cachedInputTokens`, in both OpenAI's and DeepSeek's fields).
 */
function usageOf(reply: ScriptedReply, prompt: Record<string, unknown>) {
  const output = reply.usage?.outputTokens ?? 10;
  const scripted = reply.usage?.inputTokens;
  if (scripted === undefined) return { ...prompt, completion_tokens: output, total_tokens: Number(prompt.prompt_tokens ?? 0) + output };
  const cached = reply.usage?.cachedInputTokens ?? 0;
  const dialect = 'prompt_cache_hit_tokens' in prompt ? { prompt_cache_hit_tokens: cached, prompt_cache_miss_tokens: scripted - cached } : {};
  return { prompt_tokens: scripted, completion_tokens: output, total_tokens: scripted + output, prompt_tokens_details: { cached_tokens: cached }, ...dialect };
}

/** Splits text into a few pieces so clients must reassemble. */
function fragments(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function replyFrames(model: string, reply: ScriptedReply, calls: WireToolCall[], body: ChatRequestBody, prompt: Record<string, unknown>): string[] {
  const base = { id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1, model };
  const frame = (delta: unknown, finish: string | null = null) => `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const frames = [frame({ role: 'assistant', content: '' })];
  for (const piece of fragments(reply.reasoning ?? '', 8)) frames.push(frame({ reasoning_content: piece }));
  for (const piece of fragments(reply.text ?? '', 5)) frames.push(frame({ content: piece }));
  calls.forEach((call, index) => {
    frames.push(frame({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }));
    for (const piece of fragments(call.function.arguments, 7)) frames.push(frame({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  frames.push(frame({}, finishReason(reply, calls)));
  const options = body.stream_options as { include_usage?: boolean } | undefined;
  if (options?.include_usage) frames.push(`data: ${JSON.stringify({ ...base, choices: [], usage: usageOf(reply, prompt) })}\n\n`);
  frames.push('data: [DONE]\n\n');
  return frames;
}

function completion(model: string, reply: ScriptedReply, calls: WireToolCall[], prompt: Record<string, unknown>) {
  const message: Record<string, unknown> = { role: 'assistant', content: reply.text ?? null };
  if (calls.length) message.tool_calls = calls;
  if (reply.reasoning) message.reasoning_content = reply.reasoning;
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1,
    model,
    choices: [{ index: 0, message, finish_reason: finishReason(reply, calls) }],
    usage: usageOf(reply, prompt),
  };
}

/**
 * Content arrays as Chat Completions takes them: user messages may mix `text` and `image_url`
 * parts; tool messages carry text only (a string or text parts); an image anywhere else is a 400.
 */
function checkContentParts(message: ChatRequestBody['messages'][number], i: number): string[] {
  if (!Array.isArray(message.content)) return [];
  const problems: string[] = [];
  (message.content as Array<Record<string, unknown>>).forEach((part, j) => {
    const where = `message ${i} content[${j}]`;
    if (part.type === 'text') {
      if (typeof part.text !== 'string') problems.push(`${where}: text part without text`);
    } else if (part.type === 'image_url') {
      if (message.role !== 'user') problems.push(`${where}: image_url is only allowed in user messages (role ${message.role})`);
      const image = part.image_url as { url?: unknown } | undefined;
      problems.push(...checkDataUrl(where, image?.url));
    } else {
      problems.push(`${where}: unknown content part type ${JSON.stringify(part.type)}`);
    }
  });
  return problems;
}

/** The rules a real provider enforces, plus ours: calls echoed verbatim, answered in order. */
export function checkProtocol(body: ChatRequestBody, previousCalls: WireToolCall[]): string[] {
  const problems: string[] = [];
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) return ['messages must be a non-empty array'];
  if (typeof body.model !== 'string' || !body.model) problems.push('model is missing');

  for (let i = 0; i < messages.length; i++) problems.push(...checkContentParts(messages[i]!, i));
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === 'assistant') {
      const calls = message.tool_calls ?? [];
      if (message.content === null && calls.length) problems.push(`message ${i}: call-only assistant content is null (send "")`);
      if (!calls.length && (message.content === '' || message.content == null)) problems.push(`message ${i}: empty assistant message`);
      const expected = calls.map((call) => call.id);
      for (const call of calls) {
        if (call.type !== 'function' || typeof call.function?.arguments !== 'string' || !call.function.name) {
          problems.push(`message ${i}: malformed tool call ${JSON.stringify(call)}`);
        }
      }
      const answered: string[] = [];
      let j = i + 1;
      while (j < messages.length && messages[j]!.role === 'tool') answered.push(String(messages[j++]!.tool_call_id));
      if (expected.length && answered.join(',') !== expected.join(',')) {
        problems.push(`message ${i}: calls [${expected.join(', ')}] answered by [${answered.join(', ')}] (each call needs one result, in order)`);
      }
      if (!expected.length && answered.length) problems.push(`message ${i}: tool results [${answered.join(', ')}] follow an assistant message without calls`);
      i = j - 1;
    } else if (message.role === 'tool') {
      problems.push(`message ${i}: tool result ${String(message.tool_call_id)} matches no call`);
    }
  }

  // The calls this server just sent must come back byte-for-byte in the history.
  const echoed = messages.flatMap((message) => message.tool_calls ?? []);
  {
    for (const call of previousCalls) {
      const found = echoed.find((candidate) => candidate.id === call.id);
      if (!found) problems.push(`tool call ${call.id} (${call.function.name}) was not echoed in the history`);
      else if (found.function.name !== call.function.name || found.function.arguments !== call.function.arguments) {
        problems.push(`tool call ${call.id} was rewritten: sent ${JSON.stringify(call.function)}, got back ${JSON.stringify(found.function)}`);
      }
    }
  }
  return problems;
}

