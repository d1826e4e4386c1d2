import { RequestScope } from '../shared/request-scope.js';
import { warmCatalog } from '../shared/model-catalog.js';
import type OpenAI from 'openai';
import { openaiSdk } from './sdk.js';
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { AssistantMessage, Message, Usage } from '../../contracts/messages.js';
import { extractLeakedToolCalls, LeakedTextGuard } from '../shared/leaked-tool-calls.js';
import type { FinishReason, ModelRequest, ModelResponse, Provider, ProviderEvent } from '../../contracts/provider.js';
import { DEFAULT_IDLE_TIMEOUT_MS, IdleTimer } from '../shared/idle-timer.js';
import { jsonInsteadOfStream, unexpectedJson } from '../shared/json-instead-of-stream.js';
import { ProviderError } from '../../contracts/provider-error.js';
import { ToolCallAccumulator, type ToolCallFragment } from './accumulate.js';
import { toOpenAIMessages, toOpenAITools, WireMessages, type ConvertOptions } from './convert.js';
import { EncodedBodies } from './encoded-body.js';
import { toProviderError } from './errors.js';
import { readUsage } from './read-usage.js';
import { readContent } from './content-parts.js';
import { isOwnReasoning, readReasoning, reasoningData, type ReasoningField } from './reasoning.js';
import { leftOutOf } from '../shared/left-out.js';
import { unsupportedParameter, withoutParameters } from './unsupported-parameters.js';
import { ToolWireMap, type ToolIdFormat } from '../shared/tool-ids.js';
import { promptCacheFields, type PromptCacheOptions } from './prompt-cache-fields.js';
import { sdkClientOptions } from '../shared/sdk-client-options.js';

export interface OpenAIProviderOptions {
  /** Shown in events and errors; also the key for replaying provider data. Default "openai". */
  name?: string;
  apiKey: string;
  /** Where the key came from, named when the provider refuses it (\"check ANTHROPIC_API_KEY\"); default the vendor's own variable. */
  keyVariable?: string;
  baseURL?: string;
  /** Stream replies (default true). */
  stream?: boolean;
  /** Send reasoning text back on later requests (DeepSeek/Kimi thinking with tools, GLM). */
  replayReasoning?: boolean;
  /** Per-request time limit in ms (default 10 minutes); the SDK stops counting at the response headers. */
  timeoutMs?: number;
  /** A streamed reply that sends nothing for this long (before or after the headers) is given up and retried (default 5 minutes). */
  idleTimeoutMs?: number;
  /** How long the server may send nothing at all before its first byte; unset: `idleTimeoutMs`. */
  firstByteTimeoutMs?: number;
  defaultHeaders?: Record<string, string>;
  /**
   * Turn tool calls that a server left in the text (`<tool_call>…`, `<function=…>`) into calls
   * when tools were offered and none came natively (default true).
   */
  recoverLeakedToolCalls?: boolean;
  /** Tool-call ids the endpoint demands; ids in the history that do not fit are remapped on the wire. */
  idFormat?: ToolIdFormat;
  /**
   * Prompt-cache fields (OpenAI's own API takes both; most compatible endpoints ignore or refuse
   * them, and a refusal drops the field for the rest of the session). Default: none.
   */
  promptCache?: Partial<PromptCacheOptions>;
}

/** OpenAI Chat Completions, and every endpoint that speaks it, through the official SDK. */
export class OpenAIProvider implements Provider {
  readonly name: string;
  private client: Promise<OpenAI> | undefined;
  private readonly clientOptions: ConstructorParameters<typeof OpenAI>[0];
  private readonly streaming: boolean;
  private readonly replayReasoning: boolean;
  private readonly recoverLeaked: boolean;
  /** Optional request fields this endpoint answered 400 for; never sent again. */
  private readonly refused = new Set<string>();
  private readonly idFormat: ToolIdFormat;
  private readonly idleTimeoutMs: number;
  private readonly firstByteTimeoutMs: number | undefined;
  private readonly promptCache: PromptCacheOptions;
  private calls = 0;

  /** Kept only to cut it out of error messages. */
  private readonly apiKey: string;
  private readonly keyVariable: string;

  constructor(options: OpenAIProviderOptions) {
    this.apiKey = options.apiKey;
    this.keyVariable = options.keyVariable ?? 'OPENAI_API_KEY';
    this.name = options.name ?? 'openai';
    this.streaming = options.stream ?? true;
    this.replayReasoning = options.replayReasoning ?? false;
    this.recoverLeaked = options.recoverLeakedToolCalls ?? true;
    this.idFormat = options.idFormat ?? 'verbatim';
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.firstByteTimeoutMs = options.firstByteTimeoutMs;
    this.promptCache = { key: options.promptCache?.key ?? false, extendedRetention: options.promptCache?.extendedRetention ?? false };
    this.clientOptions = sdkClientOptions(options, 'OPENAI_LOG', this.name);
  }

  private readonly converted = new WireMessages();
  private readonly encoded = new EncodedBodies();

  private wireMessages(messages: Message[], options: ConvertOptions): ChatCompletionMessageParam[] {
    return this.idFormat === 'verbatim' ? this.converted.convert(messages, options) : toOpenAIMessages(messages, options);
  }

  /** The SDK client, made on the first request (constructing a provider loads no SDK). */
  private sdkClient(): Promise<OpenAI> {
    return (this.client ??= openaiSdk.load().then((sdk) => new sdk.OpenAI(this.clientOptions)));
  }

  async *stream(request: ModelRequest, outer?: AbortSignal): AsyncGenerator<ProviderEvent> {
    const wire = new ToolWireMap({ idFormat: this.idFormat });
    const body = {
      model: request.model,
      messages: this.wireMessages(request.messages, { provider: this.name, model: request.model, replayReasoning: this.replayReasoning, wire }),
      temperature: request.temperature,
      ...(request.tools.length ? { tools: toOpenAITools(request.tools) } : {}),
      ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
      ...promptCacheFields(request.messages, request.model, this.promptCache),
    };
    const idPrefix = `call_${++this.calls}`;
    const scope = new RequestScope(outer, this.streaming ? this.idleTimeoutMs : undefined, this.firstByteTimeoutMs);
    const { signal, idle } = scope;
    let opened = false;
    try {
      const client = await this.sdkClient();
      if (!this.streaming) {
        const completion = await this.sendDroppingRefused({ ...body, stream: false as const }, (sent) => client.chat.completions.create(sent, { signal, ...this.preEncoded(sent) }));
        yield* this.fromCompletion(completion, request, idPrefix, wire);
        return;
      }
      idle?.touch();
      const { data: stream, response } = await this.sendDroppingRefused({ ...body, stream: true as const, stream_options: { include_usage: true } }, (sent) =>
        client.chat.completions.create(sent, { signal, ...this.preEncoded(sent) }).withResponse(),
      );
      opened = true;
      warmCatalog(request.model);
      const json = await jsonInsteadOfStream(response);
      if (!json) return yield* this.fromStream(stream, request, idPrefix, wire, idle);
      if (json.error) throw toProviderError(new (await openaiSdk.load()).APIError(undefined, json.error as object, undefined, response.headers), this.name, 'answered HTTP 200 with an error instead of a stream');
      if (!Array.isArray(json.choices)) throw unexpectedJson(this.name, json);
      yield* this.fromCompletion(json as unknown as ChatCompletion, request, idPrefix, wire);
    } catch (error) {
      throw scope.failure(error, { label: this.name, opened, apiKey: this.apiKey, keyVariable: this.keyVariable, toProviderError: (e) => toProviderError(e, this.name) });
    } finally {
      scope.close();
    }
  }

  /**
   * The body as the SDK would encode it, each earlier message's JSON reused (EncodedBodies): given
   * as a string with its content type, the SDK sends it as it is. Only for ids sent as they are
   * (remapped ids are converted afresh each request, so there is nothing to reuse).
   */
  private preEncoded(sent: { messages: ChatCompletionMessageParam[] }): { body?: string; headers?: Record<string, string> } {
    if (this.idFormat !== 'verbatim') return {};
    return { body: this.encoded.encode(sent), headers: { 'content-type': 'application/json' } };
  }

  /** Optional fields this endpoint refused (learned from its 400s). */
  get refusedParameters(): ReadonlySet<string> {
    return this.refused;
  }

  /** Sends; a 400 naming an optional field we sent as unknown sends again without it, once per field. */
  private async sendDroppingRefused<B extends object, R>(body: B, send: (body: B) => Promise<R>): Promise<R> {
    for (;;) {
      const sent = withoutParameters(body, this.refused);
      try {
        return await send(sent);
      } catch (error) {
        const name = unsupportedParameter(error, Object.keys(sent));
        if (!name) throw error;
        this.refused.add(name);
      }
    }
  }

  private async *fromStream(
    stream: AsyncIterable<ChatCompletionChunk>,
    request: ModelRequest,
    idPrefix: string,
    wire: ToolWireMap,
    idle: IdleTimer | undefined,
  ): AsyncGenerator<ProviderEvent> {
    const calls = new ToolCallAccumulator();
    const guard = this.recoverLeaked && request.tools.length ? new LeakedTextGuard() : undefined;
    let text = '';
    let reasoning = '';
    let reasoningField: ReasoningField = 'reasoning_content';
    let finish: string | null | undefined;
    let usage: Usage | undefined;
    for await (const chunk of stream) {
      idle?.touch();
      if (chunk.usage) usage = readUsage(chunk.usage);
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const delta = (choice.delta ?? {}) as Record<string, unknown>;
      const content = readContent(delta.content);
      const thought = readReasoning(delta) ?? (content.thinking ? { text: content.thinking, field: 'reasoning_content' as const } : undefined);
      if (thought) {
        reasoning += thought.text;
        reasoningField = thought.field;
        yield { type: 'reasoning_delta', text: thought.text };
      }
      if (content.text) {
        text += content.text;
        const shown = guard ? guard.push(content.text) : content.text;
        if (shown) yield { type: 'text_delta', text: shown };
      }
      for (const fragment of (delta.tool_calls as ToolCallFragment[] | undefined) ?? []) {
        const { position, isNew } = calls.add(fragment);
        const call = calls.peek(position)!;
        if (isNew || fragment.function?.name) yield { type: 'tool_call_delta', index: position, id: call.id, name: call.name };
      }
      if (choice.finish_reason) {
        finish = choice.finish_reason;
        idle?.finish();
      }
    }
    // A stream that ends without a finish frame was cut: its half-received calls must not run.
    if (!finish) throw new ProviderError('stream_cut', `${this.name}: the stream ended before the reply was finished.`);
    const response = this.response(text, { text: reasoning, field: reasoningField }, ours(calls.finish(idPrefix), wire), finish, usage, request, idPrefix);
    const held = guard?.rest();
    if (held && !response.leakedToolCalls) yield { type: 'text_delta', text: held };
    yield { type: 'response', response };
  }

  private async *fromCompletion(completion: ChatCompletion, request: ModelRequest, idPrefix: string, wire: ToolWireMap): AsyncGenerator<ProviderEvent> {
    const choice = completion.choices?.[0];
    if (!choice) throw new ProviderError('server', `${this.name} returned no choices.`);
    const message = choice.message as unknown as Record<string, unknown>;
    const content = readContent(message.content);
    const text = content.text;
    const reasoning = readReasoning(message) ?? { text: content.thinking, field: 'reasoning_content' as const };
    const calls = new ToolCallAccumulator();
    ((message.tool_calls as ToolCallFragment[] | undefined) ?? []).forEach((call, index) => calls.add({ ...call, index }));
    const usage = completion.usage ? readUsage(completion.usage) : undefined;
    const response = this.response(text, reasoning, ours(calls.finish(idPrefix), wire), choice.finish_reason ?? 'stop', usage, request, idPrefix);
    if (reasoning.text) yield { type: 'reasoning_delta', text: reasoning.text };
    if (response.message.content) yield { type: 'text_delta', text: response.message.content };
    yield { type: 'response', response };
  }

  private response(
    text: string,
    reasoning: { text: string; field: ReasoningField },
    toolCalls: AssistantMessage['toolCalls'],
    finish: string,
    usage: Usage | undefined,
    request: ModelRequest,
    idPrefix: string,
  ): ModelResponse {
    const model = request.model;
    // A reply cut off by the output limit is never mined for calls: the last one may be half-written.
    const leaked = this.recoverLeaked && toolCalls.length === 0 && finish !== 'length' ? extractLeakedToolCalls(text, request.tools) : undefined;
    if (leaked) {
      text = leaked.text;
      toolCalls = leaked.calls.map((call, position) => ({ id: `${idPrefix}_${position}`, ...call }));
    }
    const message: AssistantMessage = { role: 'assistant', content: text, toolCalls };
    if (reasoning.text) {
      message.reasoning = reasoning.text;
      message.providerData = reasoningData(this.name, model, reasoning.text, reasoning.field);
    }
    const response: ModelResponse = { message, finishReason: normaliseFinish(finish, toolCalls.length > 0) };
    if (usage) response.usage = usage;
    if (leaked) response.leakedToolCalls = leaked.calls.length;
    const leftOut = leftOutOf(request.messages, { provider: this.name, model, wire: 'chat' }, (data) => isOwnReasoning(data, { provider: this.name, model }));
    if (leftOut) response.leftOut = leftOut;
    return response;
  }
}

/** Calls with the ids our history knows them by (a remapped id the model echoes maps back). */
function ours(calls: AssistantMessage['toolCalls'], wire: ToolWireMap): AssistantMessage['toolCalls'] {
  return calls.map((call) => ({ ...call, id: wire.idFromWire(call.id) }));
}

function normaliseFinish(reason: string, hasCalls: boolean): FinishReason {
  if (reason === 'length') return 'length';
  if (reason === 'content_filter') return 'content_filter';
  // Some servers say "stop" while carrying complete calls: the calls decide, not the label.
  if (hasCalls || reason === 'tool_calls' || reason === 'function_call') return 'tool_calls';
  return reason === 'stop' ? 'stop' : 'other';
}
