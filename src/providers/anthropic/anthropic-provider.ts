import { RequestScope } from '../shared/request-scope.js';
import { warmCatalog } from '../shared/model-catalog.js';
import type Anthropic from '@anthropic-ai/sdk';
import { anthropicSdk } from './sdk.js';
import type { Message, MessageCreateParamsBase, MessageParam, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { addUsage, type AssistantMessage, type Usage } from '../../contracts/messages.js';
import type { FinishReason, ModelRequest, ModelResponse, Provider, ProviderEvent } from '../../contracts/provider.js';
import { DEFAULT_IDLE_TIMEOUT_MS, IdleTimer } from '../shared/idle-timer.js';
import { jsonInsteadOfStream, unexpectedJson } from '../shared/json-instead-of-stream.js';
import { ProviderError } from '../../contracts/provider-error.js';
import { MessageAccumulator, type WireUsage } from './accumulate.js';
import { isOwnData, toAnthropicConversation, toAnthropicTools, type AnthropicProviderData, type ThinkingBlock } from './convert.js';
import { leftOutOf } from '../shared/left-out.js';
import { toProviderError } from './errors.js';
import { withCacheBreakpoints, type CacheTtl } from './cache-breakpoints.js';
import { sdkClientOptions } from '../shared/sdk-client-options.js';
import { SearchAllowance, uniqueCitations, type ServerSearchOptions } from '../shared/server-search.js';
import { anthropicWebSearchTool } from './web-search-tool.js';

/** Anthropic requires `max_tokens`; this is used when the request sets none. */
export const DEFAULT_MAX_TOKENS = 8192;
/** A paused turn (long server-side tool work) is continued at most this many times. */
const MAX_PAUSE_CONTINUATIONS = 4;

export interface AnthropicProviderOptions {
  /** Shown in events and errors; also the key for replaying thinking. Default "anthropic". */
  name?: string;
  apiKey: string;
  /** Where the key came from, named when the provider refuses it (\"check ANTHROPIC_API_KEY\"); default the vendor's own variable. */
  keyVariable?: string;
  /** Without the `/v1` suffix, as the SDK expects (ANTHROPIC_BASE_URL). */
  baseURL?: string;
  /** Stream replies (default true). */
  stream?: boolean;
  /** Extended thinking with this token budget; `max_tokens` is raised above it when needed. */
  thinkingBudget?: number;
  /** Per-request time limit in ms (default 10 minutes); the SDK stops counting at the response headers. */
  timeoutMs?: number;
  /** A streamed reply that sends nothing for this long (before or after the headers) is given up and retried (default 5 minutes). */
  idleTimeoutMs?: number;
  /** How long the server may send nothing at all before its first byte; unset: `idleTimeoutMs`. */
  firstByteTimeoutMs?: number;
  defaultHeaders?: Record<string, string>;
  /**
   * Prompt caching: "5m" (default) or "1h" marks the tools, system prompt and newest messages as
   * cache breakpoints (see cache-breakpoints.ts; "1h" keeps the tools and system prompt an
   * hour); false sends none.
   */
  promptCache?: CacheTtl | false;
  /**
   * Anthropic's own web search tool, added to every request that has tools. Its blocks (the
   * search, its encrypted results, the text's citations) are kept on the reply's providerData
   * and sent back unchanged.
   */
  webSearch?: ServerSearchOptions;
}

/** The Anthropic Messages API through the official SDK. */
export class AnthropicProvider implements Provider {
  readonly name: string;
  private client: Promise<Anthropic> | undefined;
  private readonly clientOptions: ConstructorParameters<typeof Anthropic>[0];
  private readonly streaming: boolean;
  private readonly thinkingBudget: number | undefined;
  private readonly idleTimeoutMs: number;
  private readonly firstByteTimeoutMs: number | undefined;
  private readonly promptCache: CacheTtl | false;
  private readonly search: SearchAllowance | undefined;

  /** Kept only to cut it out of error messages. */
  private readonly apiKey: string;
  private readonly keyVariable: string;

  constructor(options: AnthropicProviderOptions) {
    this.apiKey = options.apiKey;
    this.keyVariable = options.keyVariable ?? 'ANTHROPIC_API_KEY';
    this.name = options.name ?? 'anthropic';
    this.streaming = options.stream ?? true;
    this.thinkingBudget = options.thinkingBudget;
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.firstByteTimeoutMs = options.firstByteTimeoutMs;
    this.promptCache = options.promptCache ?? '5m';
    this.search = options.webSearch ? new SearchAllowance(options.webSearch) : undefined;
    this.clientOptions = sdkClientOptions(options, 'ANTHROPIC_LOG', this.name);
  }

  /** The SDK client, made on the first request (constructing a provider loads no SDK). */
  private sdkClient(): Promise<Anthropic> {
    return (this.client ??= anthropicSdk.load().then((sdk) => new sdk.Anthropic(this.clientOptions)));
  }

  async *stream(request: ModelRequest, outer?: AbortSignal): AsyncGenerator<ProviderEvent> {
    const scope = new RequestScope(outer, this.streaming ? this.idleTimeoutMs : undefined, this.firstByteTimeoutMs);
    const progress = { opened: false };
    try {
      yield* this.reply(request, scope.signal, scope.idle, progress);
    } catch (error) {
      throw scope.failure(error, { label: this.name, opened: progress.opened, apiKey: this.apiKey, keyVariable: this.keyVariable, toProviderError: (e) => toProviderError(e, this.name) });
    } finally {
      scope.close();
    }
  }

  /** One reply; a `pause_turn` is continued by sending the paused content back as the last turn. */
  private async *reply(request: ModelRequest, signal: AbortSignal, idle: IdleTimer | undefined, progress: { opened: boolean }): AsyncGenerator<ProviderEvent> {
    const base = this.params(request);
    const parts: MessageAccumulator[] = [];
    for (let pauses = 0; ; pauses++) {
      const echo: MessageParam[] = parts.length ? [{ role: 'assistant', content: parts.flatMap((part) => part.echo()) }] : [];
      const part = new MessageAccumulator();
      yield* this.exchange({ ...base, messages: [...base.messages, ...echo] }, part, signal, idle, progress);
      if (signal.aborted) throw new ProviderError('aborted', 'Request aborted.');
      if (!part.stopped) throw new ProviderError('stream_cut', `${this.name}: the stream ended before message_stop.`);
      parts.push(part);
      if (part.stopReason !== 'pause_turn' || part.calls().length > 0 || pauses >= MAX_PAUSE_CONTINUATIONS) break;
    }
    const response = this.response(parts, request.model);
    const leftOut = leftOutOf(request.messages, { provider: this.name, model: request.model }, (data) => isOwnData(data, { provider: this.name, model: request.model }));
    if (leftOut) response.leftOut = leftOut;
    yield { type: 'response', response };
  }

  private async *exchange(
    params: MessageCreateParamsBase,
    part: MessageAccumulator,
    signal: AbortSignal,
    idle: IdleTimer | undefined,
    progress: { opened: boolean },
  ): AsyncGenerator<ProviderEvent> {
    const client = await this.sdkClient();
    if (!this.streaming) return yield* wholeMessage(await client.messages.create({ ...params, stream: false }, { signal }), part);
    idle?.touch();
    const { data: stream, response } = await client.messages.create({ ...params, stream: true }, { signal }).withResponse();
    progress.opened = true;
    warmCatalog(params.model);
    const json = await jsonInsteadOfStream(response);
    if (json) {
      if (json.type === 'error' || json.error) throw toProviderError(new (await anthropicSdk.load()).APIError(undefined, json, undefined, response.headers), this.name, 'answered HTTP 200 with an error instead of a stream');
      if (json.type !== 'message' || !Array.isArray(json.content)) throw unexpectedJson(this.name, json);
      return yield* wholeMessage(json as unknown as Message, part);
    }
    for await (const event of stream as AsyncIterable<RawMessageStreamEvent>) {
      idle?.touch();
      yield* part.add(event);
      // The reply is whole: a server that keeps the connection open after it must not hold us.
      if (part.stopped) break;
    }
  }

  private params(request: ModelRequest): MessageCreateParamsBase {
    const { system, messages } = toAnthropicConversation(request.messages, { provider: this.name, model: request.model });
    // No temperature: this SDK's Messages API has no such parameter, so request.temperature is unused.
    const params: MessageCreateParamsBase = { model: request.model, max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS, messages };
    if (this.thinkingBudget !== undefined) {
      // The budget must stay below max_tokens.
      params.max_tokens = Math.max(params.max_tokens, this.thinkingBudget + 1024);
      params.thinking = { type: 'enabled', budget_tokens: this.thinkingBudget };
    }
    if (system) params.system = system;
    if (request.tools.length) params.tools = [...toAnthropicTools(request.tools), ...(this.search?.open ? [anthropicWebSearchTool(this.search.options)] : [])];
    return this.promptCache ? withCacheBreakpoints(params, this.promptCache) : params;
  }

  private response(parts: MessageAccumulator[], model: string): ModelResponse {
    const toolCalls = parts.flatMap((part) => part.calls());
    const thinking: ThinkingBlock[] = parts.flatMap((part) => part.thinking());
    const message: AssistantMessage = { role: 'assistant', content: parts.map((part) => part.text()).join(''), toolCalls };
    const reasoning = thinking.map((block) => (block.type === 'thinking' ? block.thinking : '')).join('');
    if (reasoning) message.reasoning = reasoning;
    const citations = uniqueCitations(parts.flatMap((part) => part.citations()));
    if (citations.length) message.citations = citations;
    this.search?.record(parts.reduce((sum, part) => sum + part.searches(), 0));
    // With server blocks the reply goes back whole, as received (the API runs a search left
    // pending beside a client call only when its server_tool_use comes back).
    const content = parts.some((part) => part.hasServerContent()) ? parts.flatMap((part) => part.echo()) : undefined;
    if (thinking.length || content) {
      const data: AnthropicProviderData = { provider: this.name, model, thinking, ...(content ? { content } : {}) };
      message.providerData = data;
    }
    const usages = parts.map((part) => part.normalisedUsage()).filter((usage): usage is Usage => usage !== undefined);
    const response: ModelResponse = { message, finishReason: normaliseStop(parts[parts.length - 1]!.stopReason, toolCalls.length > 0) };
    if (usages.length) response.usage = usages.reduce(addUsage);
    return response;
  }
}

/** A reply that came whole (not streamed, or a server that ignored `stream: true`). */
function* wholeMessage(message: Message, part: MessageAccumulator): Generator<ProviderEvent> {
  for (const [index, block] of message.content.entries()) yield* part.addBlock(index, block as unknown as Record<string, unknown>);
  part.setUsage(message.usage as WireUsage, message.stop_reason);
}

/**
 * `max_tokens` wins over calls (a call it cut off must not run); a turn still paused after the
 * continuations is reported as `other`.
 */
export function normaliseStop(reason: string | null, hasCalls: boolean): FinishReason {
  if (reason === 'max_tokens' || reason === 'model_context_window_exceeded') return 'length';
  if (reason === 'refusal') return 'content_filter';
  if (hasCalls || reason === 'tool_use') return 'tool_calls';
  if (reason === 'end_turn' || reason === 'stop_sequence') return 'stop';
  return 'other';
}
