/**
 * A real HTTP server on 127.0.0.1 that speaks the Gemini REST protocol
 * (POST /v1beta/models/{model}:streamGenerateContent?alt=sse and :generateContent), replays
 * scripted replies the way Gemini sends them (no call ids or indexes, a whole call per part,
 * finishReason STOP even with calls, thought parts and signatures, cumulative usage on every
 * chunk), records every request, and answers 400 (recorded as a violation) to any request a
 * real Gemini would reject, plus our own rule that signatures come back on their parts.
 */
import { PromptCacheSimulator } from '../../bench/prompt-cache.mjs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { ScriptedReply } from '../../src/providers/scripted.js';
import { checkGeminiRequest, type GeminiPart, type GeminiRequestBody, type SentSignature } from './gemini-rules.js';
import { json as jsonReply, readBody, startSse, listenOnLoopback, sendRaw, type RawFault } from './http-replies.js';

export type { GeminiRequestBody, GeminiPart } from './gemini-rules.js';

export type GeminiFault =
  | { kind: 'http_error'; status: number; headers?: Record<string, string>; body?: unknown }
  /** Sends the reply's first `afterEvents` SSE frames, then destroys the socket. */
  | { kind: 'cut'; reply: ScriptedReply; afterEvents: number }
  /** Sends these response objects verbatim as SSE frames. */
  | { kind: 'raw_chunks'; chunks: unknown[] }
  /** Opens the stream and sends nothing more until the client gives up. */
  | { kind: 'hang' }
  /** Streams the reply's first `afterEvents` SSE frames, then nothing more, keeping the connection open. */
  | { kind: 'stall'; reply: ScriptedReply; afterEvents: number }
  /** Reads the request and never answers, not even the headers. */
  | { kind: 'silent' }
  /** Streams the reply's first `afterEvents` SSE frames, then one frame that is not JSON, then ends. */
  | { kind: 'garbled'; reply: ScriptedReply; afterEvents: number }
  /** Streams the reply with a pause before each SSE frame (for aborting mid-stream). */
  | { kind: 'slow'; reply: ScriptedReply; delayMs: number }
  | RawFault;

/** A reply plus Gemini-only knobs: thought signatures on the parts, usage with thoughts. */
export interface GeminiReply extends ScriptedReply {
  /** Put a thoughtSignature on the first call (or on the text when there are none). Default: when `reasoning` is set. */
  signed?: boolean;
  /** Reported as thoughtsTokenCount (excluded from candidatesTokenCount, as Gemini does). */
  thoughtsTokens?: number;
  /**
   * Google Search grounding: the last chunk's candidate carries groundingMetadata (the queries,
   * a groundingChunk per page, a support tying the whole text to every page, the search entry
   * point). The request must have turned googleSearch on, or it is a violation.
   */
  grounding?: { queries: string[]; pages: Array<{ url: string; title: string }> };
}

export type GeminiStep = GeminiReply | GeminiFault | ((body: GeminiRequestBody) => GeminiReply | GeminiFault);

export interface RecordedRequest {
  model: string;
  method: 'streamGenerateContent' | 'generateContent';
  apiKey: string | undefined;
  body: GeminiRequestBody;
}

export interface GeminiServer {
  /** Root URL; the SDK appends /v1beta/models/... */
  url: string;
  requests: RecordedRequest[];
  violations: string[];
  /** The implicit prompt cache this server simulates (bench/prompt-cache.mjs). */
  cache: PromptCacheSimulator;
  readonly remaining: number;
  close(): Promise<void>;
}

const ROUTE = /^\/v1beta\/models\/([^/:?]+):(streamGenerateContent|generateContent)(?:\?(.*))?$/;

export async function startGeminiServer(script: GeminiStep[], options: { now?: () => number } = {}): Promise<GeminiServer> {
  const cache = new PromptCacheSimulator(options.now ? { now: options.now } : {});
  const requests: RecordedRequest[] = [];
  const violations: string[] = [];
  // What the previous reply sent that must come back: its calls and its signatures.
  let previous: { calls: number; signatures: SentSignature[] } = { calls: 0, signatures: [] };
  let position = 0;
  let signatureCounter = 0;

  const server = createServer(async (req, res) => {
    const route = req.method === 'POST' ? req.url?.match(ROUTE) : null;
    if (!route) return json(res, 404, rpcError(404, 'NOT_FOUND', `no route ${req.method} ${req.url}`));
    const [, model, method, query] = route;
    const text = await readBody(req);
    let body: GeminiRequestBody;
    try {
      body = JSON.parse(text) as GeminiRequestBody;
    } catch {
      violations.push(`request ${requests.length + 1}: body is not JSON`);
      return json(res, 400, rpcError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.'));
    }
    const apiKey = header(req, 'x-goog-api-key');
    requests.push({ model: model!, method: method as RecordedRequest['method'], apiKey, body });
    const streaming = method === 'streamGenerateContent';
    const problems = checkGeminiRequest(body, previous);
    if (!apiKey) problems.push('no x-goog-api-key header');
    if (streaming && !/(?:^|&)alt=sse(?:&|$)/.test(query ?? '')) problems.push('streamGenerateContent without alt=sse');
    previous = { calls: 0, signatures: [] };
    if (problems.length) {
      violations.push(...problems.map((p) => `request ${requests.length}: ${p}`));
      return json(res, 400, rpcError(400, 'INVALID_ARGUMENT', problems.join('; ')));
    }

    const stepDef = script[position];
    if (!stepDef) {
      violations.push(`request ${requests.length}: unexpected request, the script has ${script.length} steps`);
      return json(res, 500, rpcError(500, 'INTERNAL', 'script exhausted'));
    }
    position++;
    const step = typeof stepDef === 'function' ? stepDef(body) : stepDef;

    if ('kind' in step) {
      if (step.kind === 'http_error') {
        for (const [name, value] of Object.entries(step.headers ?? {})) res.setHeader(name, value);
        return json(res, step.status, step.body ?? rpcError(step.status, 'UNKNOWN', `HTTP ${step.status}`));
      }
      if (step.kind === 'silent') return;
      if (step.kind === 'endless' || step.kind === 'raw_bytes') return sendRaw(res, step);
      startSse(res);
      if (step.kind === 'hang') return res.flushHeaders();
      if (step.kind === 'raw_chunks') {
        for (const chunk of step.chunks) res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
        return res.end();
      }
      const built = buildReply(model!, step.reply, body, () => `sig_${++signatureCounter}`, cache);
      if (step.kind === 'slow') {
        previous = { calls: built.calls, signatures: built.signatures };
        for (const chunk of built.chunks) {
          await new Promise((resolve) => setTimeout(resolve, step.delayMs));
          if (res.destroyed) return;
          res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
        }
        return res.end();
      }
      // Each frame is flushed before the socket dies, so the client really holds a half reply.
      for (const chunk of built.chunks.slice(0, step.afterEvents)) {
        await new Promise<void>((resolve) => res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`, () => resolve()));
      }
      if (step.kind === 'garbled') return res.end('data: {"candidates": [{"content": \r\n\r\n');
      return step.kind === 'stall' ? undefined : res.socket?.destroy();
    }

    if (step.grounding && !(body.tools ?? []).some((tool) => tool.googleSearch !== undefined)) {
      violations.push(`request ${requests.length}: a grounded reply was scripted, but the request did not turn googleSearch on`);
      return json(res, 500, rpcError(500, 'INTERNAL', 'grounding without googleSearch'));
    }
    const built = buildReply(model!, step, body, () => `sig_${++signatureCounter}`, cache);
    previous = { calls: built.calls, signatures: built.signatures };
    if (!streaming) return json(res, 200, mergeChunks(built.chunks));
    startSse(res);
    for (const chunk of built.chunks) res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    return res.end();
  });

  const { origin, close } = await listenOnLoopback(server);
  return {
    url: `${origin}`,
    requests,
    violations,
    cache,
    get remaining() {
      return script.length - position;
    },
    close,
  };
}

interface BuiltReply {
  chunks: Array<Record<string, unknown>>;
  calls: number;
  signatures: SentSignature[];
}

/** Splits the reply into chunks as Gemini streams it: thoughts, text in pieces, calls whole. */
function buildReply(model: string, reply: GeminiReply, body: GeminiRequestBody, nextSignature: () => string, cache: PromptCacheSimulator): BuiltReply {
  const signatures: SentSignature[] = [];
  const signed = reply.signed ?? reply.reasoning !== undefined;
  const calls = reply.toolCalls ?? [];
  const partsPerChunk: GeminiPart[][] = [];
  for (const piece of pieces(reply.reasoning ?? '', 12)) partsPerChunk.push([{ text: piece, thought: true }]);
  const textPieces = pieces(reply.text ?? '', 6);
  textPieces.forEach((piece, i) => {
    const part: GeminiPart = { text: piece };
    // With no calls, the signature rides on the last text part.
    if (signed && !calls.length && i === textPieces.length - 1) {
      part.thoughtSignature = nextSignature();
      signatures.push({ signature: part.thoughtSignature, kind: 'text' });
    }
    partsPerChunk.push([part]);
  });
  // All calls in one chunk, each a whole call (that is how Gemini sends parallel calls).
  if (calls.length) {
    partsPerChunk.push(
      calls.map((call, i) => {
        const args = typeof call.arguments === 'string' ? (JSON.parse(call.arguments) as Record<string, unknown>) : call.arguments;
        const part: GeminiPart = { functionCall: { name: call.name, args, ...(call.id ? { id: call.id } : {}) } };
        if (signed && i === 0) {
          part.thoughtSignature = nextSignature();
          signatures.push({ signature: part.thoughtSignature, kind: 'call', name: call.name });
        }
        return part;
      }),
    );
  }
  if (!partsPerChunk.length) partsPerChunk.push([{ text: '' }]);
  const billed = cache.gemini({ ...body, model } as unknown as Record<string, unknown>);
  const simulated = billed.ok ? billed.usage : { inputTokens: 0, cachedInputTokens: 0 };
  // A script's own input figures win over the simulation.
  const prompt = reply.usage?.inputTokens ?? simulated.inputTokens;
  const cached = reply.usage?.inputTokens !== undefined ? (reply.usage.cachedInputTokens ?? 0) : simulated.cachedInputTokens;
  const thoughts = reply.thoughtsTokens ?? reply.usage?.reasoningTokens ?? 0;
  const candidates = (reply.usage?.outputTokens ?? 10) - thoughts;
  const finish = finishReasonOf(reply);
  const chunks = partsPerChunk.map((parts, i) => {
    const last = i === partsPerChunk.length - 1;
    const usage: Record<string, number> = { promptTokenCount: prompt, candidatesTokenCount: last ? candidates : 1, totalTokenCount: prompt + (last ? candidates + thoughts : 1) };
    if (thoughts) usage.thoughtsTokenCount = thoughts;
    if (cached) usage.cachedContentTokenCount = cached;
    return {
      candidates: [{ content: { role: 'model', parts }, index: 0, ...(last ? { finishReason: finish } : {}), ...(last && reply.grounding ? { groundingMetadata: groundingOf(reply.grounding, reply.text ?? '') } : {}) }],
      usageMetadata: usage,
      modelVersion: model,
      responseId: 'resp-test',
    };
  });
  return { chunks, calls: calls.length, signatures };
}

function groundingOf(grounding: NonNullable<GeminiReply['grounding']>, text: string): Record<string, unknown> {
  return {
    webSearchQueries: grounding.queries,
    searchEntryPoint: { renderedContent: '<div class="container">search suggestions</div>' },
    groundingChunks: grounding.pages.map((page) => ({ web: { uri: page.url, title: page.title } })),
    groundingSupports: [{ segment: { startIndex: 0, endIndex: text.length, text }, groundingChunkIndices: grounding.pages.map((_, i) => i), confidenceScores: grounding.pages.map(() => 0.9) }],
  };
}

/** Gemini's labels: STOP even when the reply calls tools. */
function finishReasonOf(reply: ScriptedReply): string {
  switch (reply.finishReason) {
    case 'length':
      return 'MAX_TOKENS';
    case 'content_filter':
      return 'SAFETY';
    case 'other':
      return 'OTHER';
    default:
      return 'STOP';
  }
}

function mergeChunks(chunks: Array<Record<string, unknown>>): Record<string, unknown> {
  type Candidate = { content: { parts: GeminiPart[] }; finishReason?: string };
  const parts = chunks.flatMap((chunk) => (chunk.candidates as Candidate[])[0]!.content.parts);
  const last = chunks[chunks.length - 1]!;
  return { ...last, candidates: [{ ...(last.candidates as Candidate[])[0]!, content: { role: 'model', parts }, index: 0 }] };
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export function rpcError(code: number, status: string, message: string, details?: unknown[]): unknown {
  return { error: { code, message, status, ...(details ? { details } : {}) } };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  jsonReply(res, status, body, 'application/json; charset=UTF-8');
}
