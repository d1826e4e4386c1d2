import type OpenAI from 'openai';
import type { Responses } from 'openai/resources/responses/responses';
import type { AssistantMessage } from '../../contracts/messages.js';
import type { ModelRequest, ModelResponse, Provider, ProviderEvent } from '../../contracts/provider.js';
import { ProviderError } from '../../contracts/provider-error.js';
import { isInstance } from '../../contracts/lazy-module.js';
import { openaiSdk } from '../openai/sdk.js';
import { toProviderError } from '../openai/errors.js';
import { promptCacheFields, type PromptCacheOptions } from '../openai/prompt-cache-fields.js';
import { DEFAULT_IDLE_TIMEOUT_MS } from '../shared/idle-timer.js';
import { jsonInsteadOfStream, unexpectedJson } from '../shared/json-instead-of-stream.js';
import { RequestScope } from '../shared/request-scope.js';
import { responsesWebSearchTool, toResponsesInput, toResponsesTools } from './convert.js';
import { ResponseReader, type StreamEvent } from './read-events.js';
import { isOpenAIReasoningModel } from './reasoning-models.js';
import { isOwnReasoning, reasoningItemsData } from './reasoning-items.js';
import { leftOutOf } from '../shared/left-out.js';
import { responsesResource } from './sdk.js';
import { sdkClientOptions } from '../shared/sdk-client-options.js';
import { SearchAllowance, uniqueCitations, type ServerSearchOptions } from '../shared/server-search.js';

export interface ResponsesProviderOptions {
  /** Shown in events and errors; also the key for replaying reasoning items. Default "openai". */
  name?: string;
  apiKey: string;
  /** Where the key came from, named when the provider refuses it (\"check ANTHROPIC_API_KEY\"); default the vendor's own variable. */
  keyVariable?: string;
  baseURL?: string;
  /** Per-request time limit in ms (default 10 minutes); the SDK stops counting at the response headers. */
  timeoutMs?: number;
  /** A streamed reply that sends nothing for this long is given up and retried (default 5 minutes). */
  idleTimeoutMs?: number;
  /** How long the server may send nothing at all before its first byte; unset: `idleTimeoutMs`. */
  firstByteTimeoutMs?: number;
  defaultHeaders?: Record<string, string>;
  /** `prompt_cache_key` and `prompt_cache_retention`, as on the Chat wire (default: neither sent). */
  promptCache?: Partial<PromptCacheOptions>;
  /**
   * Whether the model reasons (sends reasoning summaries and encrypted reasoning items, refuses
   * `temperature`). Default: OpenAI's o-series and gpt-5 models.
   */
  reasoning?: (model: string) => boolean;
  /**
   * OpenAI's own `web_search` tool, added to every request that has tools. Its `web_search_call`
   * items go back with the turn's reasoning; its `url_citation` annotations become the reply's citations.
   */
  webSearch?: ServerSearchOptions;
}

/**
 * OpenAI's Responses API, and any endpoint that speaks it, through the official SDK. Nothing is
 * stored on the server (`store: false`): each turn's reasoning comes back encrypted, rides on the
 * assistant message's providerData, and goes out again before that turn's calls.
 */
export class ResponsesProvider implements Provider {
  readonly name: string;
  private resource: Promise<Responses> | undefined;
  private readonly clientOptions: ConstructorParameters<typeof OpenAI>[0];
  private readonly idleTimeoutMs: number;
  private readonly firstByteTimeoutMs: number | undefined;
  private readonly promptCache: PromptCacheOptions;
  private readonly reasons: (model: string) => boolean;
  private readonly apiKey: string;
  private readonly keyVariable: string;
  private readonly search: SearchAllowance | undefined;

  constructor(options: ResponsesProviderOptions) {
    this.apiKey = options.apiKey;
    this.keyVariable = options.keyVariable ?? 'OPENAI_API_KEY';
    this.name = options.name ?? 'openai';
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.firstByteTimeoutMs = options.firstByteTimeoutMs;
    this.promptCache = { key: options.promptCache?.key ?? false, extendedRetention: options.promptCache?.extendedRetention ?? false };
    this.reasons = options.reasoning ?? isOpenAIReasoningModel;
    this.clientOptions = sdkClientOptions(options, 'OPENAI_LOG', this.name);
    this.search = options.webSearch ? new SearchAllowance(options.webSearch) : undefined;
  }

  /** The `responses` resource on an SDK client, made on the first request. */
  private responses(): Promise<Responses> {
    return (this.resource ??= Promise.all([openaiSdk.load(), responsesResource.load()]).then(([sdk, resource]) => new resource.Responses(new sdk.OpenAI(this.clientOptions))));
  }

  async *stream(request: ModelRequest, outer?: AbortSignal): AsyncGenerator<ProviderEvent> {
    const input = toResponsesInput(request.messages, { provider: this.name, model: request.model });
    const reasons = this.reasons(request.model);
    const body = {
      model: request.model,
      input,
      stream: true as const,
      store: false,
      ...(request.tools.length ? { tools: [...toResponsesTools(request.tools), ...(this.search?.open ? [responsesWebSearchTool(this.search.options)] : [])] } : {}),
      ...(request.maxTokens !== undefined ? { max_output_tokens: request.maxTokens } : {}),
      ...(reasons ? { include: ['reasoning.encrypted_content'], reasoning: { summary: 'auto' } } : { temperature: request.temperature }),
      ...promptCacheFields(request.messages, request.model, this.promptCache),
    };
    const scope = new RequestScope(outer, this.idleTimeoutMs, this.firstByteTimeoutMs);
    const { signal, idle } = scope;
    let opened = false;
    try {
      const responses = await this.responses();
      idle?.touch();
      const { data: stream, response } = await responses.create(body as unknown as Parameters<Responses['create']>[0] & { stream: true }, { signal }).withResponse();
      opened = true;
      const json = await jsonInsteadOfStream(response);
      if (json?.error) throw toProviderError(new (await openaiSdk.load()).APIError(undefined, json.error as object, undefined, response.headers), this.name, 'answered HTTP 200 with an error instead of a stream');
      if (json) throw unexpectedJson(this.name, json);
      const reader = new ResponseReader(this.name);
      for await (const event of stream as AsyncIterable<StreamEvent>) {
        idle?.touch();
        yield* reader.read(event);
        // Nothing after the final event matters; a server holding the connection open is not waited for.
        if (reader.complete) break;
      }
      yield { type: 'response', response: this.response(reader, request) };
    } catch (error) {
      throw scope.failure(error, { label: this.name, opened, apiKey: this.apiKey, keyVariable: this.keyVariable, toProviderError: (e) => this.toProviderError(e, opened) });
    } finally {
      scope.close(true);
    }
  }

  /** A connection lost once the stream had opened is a cut stream, not a failure to connect. */
  private toProviderError(error: unknown, opened: boolean): ProviderError {
    const sdk = openaiSdk.loaded();
    if (opened && !isInstance(error, sdk?.APIConnectionTimeoutError) && isInstance(error, sdk?.APIConnectionError)) {
      return new ProviderError('stream_cut', `${this.name}: the stream broke off (${error.cause instanceof Error ? error.cause.message : error.message}).`, { cause: error });
    }
    return toProviderError(error, this.name);
  }

  private response(reader: ResponseReader, request: ModelRequest): ModelResponse {
    const { model } = request;
    const reply = reader.result();
    const message: AssistantMessage = { role: 'assistant', content: reply.text, toolCalls: reply.toolCalls };
    if (reply.reasoning) message.reasoning = reply.reasoning;
    const citations = uniqueCitations(reply.citations);
    if (citations.length) message.citations = citations;
    this.search?.record(reply.searches);
    if (reply.reasoningItems.length) message.providerData = reasoningItemsData(this.name, model, reply.reasoningItems);
    const response: ModelResponse = { message, finishReason: reply.finishReason };
    if (reply.usage) response.usage = reply.usage;
    const leftOut = leftOutOf(request.messages, { provider: this.name, model, wire: 'responses' }, (data) => isOwnReasoning(data, { provider: this.name, model }));
    if (leftOut) response.leftOut = leftOut;
    return response;
  }
}

