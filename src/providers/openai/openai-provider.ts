import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { AssistantMessage, ProviderData, Usage } from '../../core/messages.js';
import type { FinishReason, ModelRequest, ModelResponse, Provider, ProviderEvent } from '../provider.js';
import { ProviderError } from '../provider-error.js';
import { ToolCallAccumulator, type ToolCallFragment } from './accumulate.js';
import { toOpenAIMessages, toOpenAITools } from './convert.js';
import { toProviderError } from './errors.js';
import { ToolWireMap, type ToolIdFormat } from '../tool-ids.js';

export interface OpenAIProviderOptions {
  /** Shown in events and errors; also the key for replaying provider data. Default "openai". */
  name?: string;
  apiKey: string;
  baseURL?: string;
  /** Stream replies (default true). */
  stream?: boolean;
  /** Send reasoning text back on later requests (DeepSeek/Kimi thinking with tools, GLM). */
  replayReasoning?: boolean;
  /** Per-request time limit in ms (default 10 minutes). */
  timeoutMs?: number;
  defaultHeaders?: Record<string, string>;
  /** Tool-call ids the endpoint demands; ids in the history that do not fit are remapped on the wire. */
  idFormat?: ToolIdFormat;
}

/** OpenAI Chat Completions, and every endpoint that speaks it, through the official SDK. */
export class OpenAIProvider implements Provider {
  readonly name: string;
  private readonly client: OpenAI;
  private readonly streaming: boolean;
  private readonly replayReasoning: boolean;
  private readonly idFormat: ToolIdFormat;
  private calls = 0;

  constructor(options: OpenAIProviderOptions) {
    this.name = options.name ?? 'openai';
    this.streaming = options.stream ?? true;
    this.replayReasoning = options.replayReasoning ?? false;
    this.idFormat = options.idFormat ?? 'verbatim';
    // Retries are ours (visible to the user as events), so the SDK's own are off.
    this.client = new OpenAI({
      apiKey: options.apiKey,
      baseURL: options.baseURL,
      maxRetries: 0,
      timeout: options.timeoutMs ?? 600_000,
      defaultHeaders: options.defaultHeaders,
    });
  }

  async *stream(request: ModelRequest, outer?: AbortSignal): AsyncGenerator<ProviderEvent> {
    let signal = outer;
    const wire = new ToolWireMap({ idFormat: this.idFormat });
    const body = {
      model: request.model,
      messages: toOpenAIMessages(request.messages, { provider: this.name, model: request.model, replayReasoning: this.replayReasoning, wire }),
      temperature: request.temperature,
      ...(request.tools.length ? { tools: toOpenAITools(request.tools) } : {}),
      ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
    };
    const idPrefix = `call_${++this.calls}`;
    // A per-request signal: the SDK leaves a listener on the signal it is given, and a run's
    // signal lives for hundreds of requests.
    const request_ = new AbortController();
    const forward = () => request_.abort(outer?.reason);
    if (outer?.aborted) forward();
    outer?.addEventListener('abort', forward, { once: true });
    signal = request_.signal;
    try {
      if (!this.streaming) {
        const completion = await this.client.chat.completions.create({ ...body, stream: false }, { signal });
        yield* this.fromCompletion(completion, request.model, idPrefix, wire);
        return;
      }
      const stream = await this.client.chat.completions.create(
        { ...body, stream: true, stream_options: { include_usage: true } },
        { signal },
      );
      yield* this.fromStream(stream, request.model, idPrefix, wire);
    } catch (error) {
      if (signal?.aborted) throw new ProviderError('aborted', 'Request aborted.', { cause: error });
      throw toProviderError(error, this.name);
    } finally {
      outer?.removeEventListener('abort', forward);
    }
  }

  private async *fromStream(stream: AsyncIterable<ChatCompletionChunk>, model: string, idPrefix: string, wire: ToolWireMap): AsyncGenerator<ProviderEvent> {
    const calls = new ToolCallAccumulator();
    let text = '';
    let reasoning = '';
    let finish: string | null | undefined;
    let usage: Usage | undefined;
    for await (const chunk of stream) {
      if (chunk.usage) usage = readUsage(chunk.usage);
      const choice = chunk.choices?.[0];
      if (!choice) continue;
      const delta = (choice.delta ?? {}) as Record<string, unknown>;
      const thought = typeof delta.reasoning_content === 'string' ? delta.reasoning_content : typeof delta.reasoning === 'string' ? delta.reasoning : '';
      if (thought) {
        reasoning += thought;
        yield { type: 'reasoning_delta', text: thought };
      }
      if (typeof delta.content === 'string' && delta.content) {
        text += delta.content;
        yield { type: 'text_delta', text: delta.content };
      }
      for (const fragment of (delta.tool_calls as ToolCallFragment[] | undefined) ?? []) {
        const { position, isNew } = calls.add(fragment);
        const call = calls.peek(position)!;
        if (isNew || fragment.function?.name) yield { type: 'tool_call_delta', index: position, id: call.id, name: call.name };
      }
      if (choice.finish_reason) finish = choice.finish_reason;
    }
    // A stream that ends without a finish frame was cut: its half-received calls must not run.
    if (!finish) throw new ProviderError('stream_cut', `${this.name}: the stream ended before the reply was finished.`);
    yield { type: 'response', response: this.response(text, reasoning, ours(calls.finish(idPrefix), wire), finish, usage, model) };
  }

  private async *fromCompletion(completion: ChatCompletion, model: string, idPrefix: string, wire: ToolWireMap): AsyncGenerator<ProviderEvent> {
    const choice = completion.choices?.[0];
    if (!choice) throw new ProviderError('server', `${this.name} returned no choices.`);
    const message = choice.message as unknown as Record<string, unknown>;
    const text = typeof message.content === 'string' ? message.content : '';
    const reasoning = typeof message.reasoning_content === 'string' ? message.reasoning_content : typeof message.reasoning === 'string' ? message.reasoning : '';
    const calls = new ToolCallAccumulator();
    ((message.tool_calls as ToolCallFragment[] | undefined) ?? []).forEach((call, index) => calls.add({ ...call, index }));
    if (reasoning) yield { type: 'reasoning_delta', text: reasoning };
    if (text) yield { type: 'text_delta', text };
    const usage = completion.usage ? readUsage(completion.usage) : undefined;
    yield { type: 'response', response: this.response(text, reasoning, ours(calls.finish(idPrefix), wire), choice.finish_reason ?? 'stop', usage, model) };
  }

  private response(text: string, reasoning: string, toolCalls: AssistantMessage['toolCalls'], finish: string, usage: Usage | undefined, model: string): ModelResponse {
    const message: AssistantMessage = { role: 'assistant', content: text, toolCalls };
    if (reasoning) {
      message.reasoning = reasoning;
      const data: ProviderData = { provider: this.name, model, reasoning_content: reasoning };
      message.providerData = data;
    }
    const response: ModelResponse = { message, finishReason: normaliseFinish(finish, toolCalls.length > 0) };
    if (usage) response.usage = usage;
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

function readUsage(raw: NonNullable<ChatCompletionChunk['usage']>): Usage {
  const details = raw.prompt_tokens_details as { cached_tokens?: number } | undefined;
  const output = raw.completion_tokens_details as { reasoning_tokens?: number } | undefined;
  return {
    inputTokens: raw.prompt_tokens ?? 0,
    outputTokens: raw.completion_tokens ?? 0,
    cachedInputTokens: details?.cached_tokens ?? 0,
    reasoningTokens: output?.reasoning_tokens ?? 0,
  };
}
