import { RequestScope } from '../shared/request-scope.js';
import { warmCatalog } from '../shared/model-catalog.js';
import type { GoogleGenAI, GenerateContentConfig, GenerateContentResponse, GoogleGenAIOptions } from '@google/genai';
import { googleSdk } from './sdk.js';
import type { AssistantMessage, ProviderData } from '../../contracts/messages.js';
import type { ModelRequest, ModelResponse, Provider, ProviderEvent } from '../../contracts/provider.js';
import { boundedFetch } from '../../contracts/bounded-fetch.js';
import { DEFAULT_IDLE_TIMEOUT_MS } from '../shared/idle-timer.js';
import { ProviderError } from '../../contracts/provider-error.js';
import { alnumHash, GEMINI_NAME, ToolWireMap } from '../shared/tool-ids.js';
import { GeminiReplyAccumulator } from './accumulate.js';
import { isOwnParts, toGeminiContents, toGeminiTools } from './convert.js';
import { leftOutOf } from '../shared/left-out.js';
import { toProviderError } from './errors.js';
import { jsonText } from '../../contracts/canonical-json.js';
import { SearchAllowance, uniqueCitations, type ServerSearchOptions } from '../shared/server-search.js';

export interface GoogleProviderOptions {
  /** Shown in events and errors; also the key for replaying provider data. Default "google". */
  name?: string;
  apiKey: string;
  /** Where the key came from, named when the provider refuses it (\"check ANTHROPIC_API_KEY\"); default the vendor's own variable. */
  keyVariable?: string;
  /** Root of the API (default https://generativelanguage.googleapis.com); the SDK adds /v1beta/models/... */
  baseURL?: string;
  apiVersion?: string;
  /** Stream replies (default true). */
  stream?: boolean;
  /** Ask thinking models to show their thoughts (default false; older models reject it). */
  includeThoughts?: boolean;
  /** Thinking budget in tokens for thinking models (the model's default when absent). */
  thinkingBudget?: number;
  /**
   * Time limit for a non-streamed reply in ms (default 10 minutes). The SDK counts it over the
   * whole reply, so a streamed reply is not given it (a long answer would be cut off and retried
   * for ever): `idleTimeoutMs` limits the silences instead.
   */
  timeoutMs?: number;
  /** A streamed reply that sends nothing for this long is given up and retried (default 5 minutes). */
  idleTimeoutMs?: number;
  /** How long the server may send nothing at all before its first byte; unset: `idleTimeoutMs`. */
  firstByteTimeoutMs?: number;
  /**
   * Google Search grounding (`googleSearch`), added to every request that has tools; the
   * response's groundingMetadata becomes the reply's citations (nothing of it goes back).
   */
  webSearch?: ServerSearchOptions;
}

/** Google Gemini (the Gemini API, not Vertex) through the official `@google/genai` SDK. */
export class GoogleProvider implements Provider {
  readonly name: string;
  private client: Promise<GoogleGenAI> | undefined;
  private readonly clientOptions: GoogleGenAIOptions;
  private readonly streaming: boolean;
  private readonly includeThoughts: boolean;
  private readonly thinkingBudget: number | undefined;
  private readonly search: SearchAllowance | undefined;
  private readonly idleTimeoutMs: number;
  private readonly firstByteTimeoutMs: number | undefined;
  private replies = 0;

  /** Kept only to cut it out of error messages. */
  private readonly apiKey: string;
  private readonly keyVariable: string;

  constructor(options: GoogleProviderOptions) {
    this.apiKey = options.apiKey;
    this.keyVariable = options.keyVariable ?? 'GEMINI_API_KEY or GOOGLE_API_KEY';
    this.name = options.name ?? 'google';
    this.streaming = options.stream ?? true;
    this.includeThoughts = options.includeThoughts ?? false;
    this.thinkingBudget = options.thinkingBudget;
    this.search = options.webSearch ? new SearchAllowance(options.webSearch) : undefined;
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.firstByteTimeoutMs = options.firstByteTimeoutMs;
    // vertexai is explicit so GOOGLE_GENAI_USE_VERTEXAI in the environment cannot reroute us.
    // No retryOptions: retries are ours, visible as events.
    this.clientOptions = {
      vertexai: false,
      apiKey: options.apiKey,
      httpOptions: {
        ...(options.baseURL ? { baseUrl: options.baseURL } : {}),
        apiVersion: options.apiVersion ?? 'v1beta',
        fetch: boundedFetch(this.name),
        ...(this.streaming ? {} : { timeout: options.timeoutMs ?? 600_000 }),
      },
    };
  }

  /** The SDK client, made on the first request (constructing a provider loads no SDK). */
  private sdkClient(): Promise<GoogleGenAI> {
    return (this.client ??= googleSdk.load().then((sdk) => new sdk.GoogleGenAI(this.clientOptions)));
  }

  async *stream(request: ModelRequest, signal?: AbortSignal): AsyncGenerator<ProviderEvent> {
    if (signal?.aborted) throw new ProviderError('aborted', 'Request aborted.');
    const scope = new RequestScope(signal, this.streaming ? this.idleTimeoutMs : undefined, this.firstByteTimeoutMs);
    const { idle } = scope;
    const wire = new ToolWireMap({ namePattern: GEMINI_NAME });
    const tools = toGeminiTools(request.tools, wire);
    const { contents, systemInstruction } = toGeminiContents(request.messages, { provider: this.name, model: request.model, wire });
    const config: GenerateContentConfig = {
      temperature: request.temperature,
      automaticFunctionCalling: { disable: true },
      // The SDK's own resumption of dropped streams would hide cuts from our retry policy.
      automaticContinuation: false,
      ...(systemInstruction ? { systemInstruction } : {}),
      ...(tools.length ? { tools: [{ functionDeclarations: tools }, ...(this.search?.open ? [{ googleSearch: {} }] : [])] } : {}),
      ...(request.maxTokens !== undefined ? { maxOutputTokens: request.maxTokens } : {}),
      ...(this.includeThoughts || this.thinkingBudget !== undefined
        ? { thinkingConfig: { ...(this.includeThoughts ? { includeThoughts: true } : {}), ...(this.thinkingBudget !== undefined ? { thinkingBudget: this.thinkingBudget } : {}) } }
        : {}),
      abortSignal: scope.signal,
    };
    const params = { model: request.model, contents, config };
    const reply = new GeminiReplyAccumulator();
    // Gemini gives calls no ids (most models): ours are unique per reply and fixed once given.
    const nonce = alnumHash(`${this.name}:${Date.now()}:${++this.replies}:${Math.random()}`, 8);
    const idOf = (position: number) => reply.calls[position]!.id ?? `call_${nonce}_${position}`;
    let opened = false;
    try {
      const client = await this.sdkClient();
      idle?.touch();
      const chunks: AsyncIterable<GenerateContentResponse> = this.streaming
        ? await client.models.generateContentStream(params)
        : single(await client.models.generateContent(params));
      opened = true;
      warmCatalog(request.model);
      for await (const chunk of chunks) {
        idle?.touch();
        for (const event of reply.add(chunk)) {
          if (event.type === 'text') yield { type: 'text_delta', text: event.text };
          else if (event.type === 'thought') yield { type: 'reasoning_delta', text: event.text };
          else yield { type: 'tool_call_delta', index: event.position, id: idOf(event.position), name: wire.nameFromWire(event.name) };
        }
        if (reply.finishReason) idle?.finish();
      }
    } catch (error) {
      // A whole reply whose connection the server held open: closing it was ours, and the reply stands.
      if (!(idle?.closedAfterFinish && !signal?.aborted)) {
        throw scope.failure(error, { label: this.name, opened, apiKey: this.apiKey, keyVariable: this.keyVariable, toProviderError: (e) => toProviderError(e, this.name, opened) });
      }
    } finally {
      // Also closes the connection when the consumer stopped reading early; a no-op after a whole reply.
      scope.close(true);
    }
    // Gemini has no end-of-stream frame: without a finish reason the reply was cut, and its calls must not run.
    if (!reply.finishReason && !reply.blockReason) throw new ProviderError('stream_cut', `${this.name}: the stream ended before the reply was finished.`);
    // Gemini failed to write a call it meant to make and sent nothing usable: worth asking again, not an answer.
    if (MALFORMED.has(reply.finishReason ?? '') && !reply.calls.length && !reply.text) {
      throw new ProviderError('server', `${this.name}: the model produced a malformed tool call (${reply.finishReason}).`);
    }
    yield { type: 'response', response: this.response(reply, wire, request, idOf) };
  }

  private response(reply: GeminiReplyAccumulator, wire: ToolWireMap, { model, messages }: ModelRequest, idOf: (position: number) => string): ModelResponse {
    const message: AssistantMessage = {
      role: 'assistant',
      content: reply.text,
      toolCalls: reply.calls.map((call, i) => ({ id: idOf(i), name: wire.nameFromWire(call.name), arguments: jsonText(call.args) })),
    };
    if (reply.thoughts) message.reasoning = reply.thoughts;
    const citations = uniqueCitations(reply.citations());
    if (citations.length) message.citations = citations;
    this.search?.record(reply.searches());
    if (reply.needsReplay) {
      const data: ProviderData = { provider: this.name, model, parts: reply.parts };
      message.providerData = data;
    }
    const response: ModelResponse = { message, finishReason: reply.normalisedFinish() };
    const usage = reply.usage();
    if (usage) response.usage = usage;
    const leftOut = leftOutOf(messages, { provider: this.name, model }, (data) => isOwnParts(data, { provider: this.name, model }));
    if (leftOut) response.leftOut = leftOut;
    return response;
  }
}

const MALFORMED = new Set(['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL']);

async function* single(response: GenerateContentResponse): AsyncGenerator<GenerateContentResponse> {
  yield response;
}
