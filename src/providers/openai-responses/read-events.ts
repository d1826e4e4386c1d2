import type { Citation, ToolCall, Usage } from '../../contracts/messages.js';
import type { FinishReason, ProviderEvent } from '../../contracts/provider.js';
import { ProviderError } from '../../contracts/provider-error.js';
import { kindOfCodes } from '../shared/error-code.js';
import type { ReasoningItem, ReplayItem, WebSearchCallItem } from './reasoning-items.js';

/** A streamed Responses event, as far as this adapter reads it. */
export interface StreamEvent {
  type: string;
  output_index?: number;
  delta?: string;
  arguments?: string;
  summary_index?: number;
  item?: Record<string, unknown>;
  response?: Record<string, unknown>;
  code?: string | null;
  message?: string;
}

interface PartialCall {
  callId: string;
  name: string;
  arguments: string;
  done: boolean;
}

export interface ReadReply {
  text: string;
  reasoning: string;
  reasoningItems: ReplayItem[];
  toolCalls: ToolCall[];
  /** The `url_citation` annotations of the reply's text. */
  citations: Citation[];
  /** Web searches the server ran for this reply. */
  searches: number;
  finishReason: FinishReason;
  usage: Usage | undefined;
}

/**
 * Turns the Responses stream's events into provider events and, once `response.completed` (or
 * `response.incomplete`) arrives, the whole reply. A stream that ends before either is cut: its
 * half-received calls must not run.
 */
export class ResponseReader {
  private text = '';
  private reasoning = '';
  private lastSummary: string | undefined;
  private readonly reasoningItems: ReplayItem[] = [];
  private readonly citations: Citation[] = [];
  private searches = 0;
  private readonly calls = new Map<number, PartialCall>();
  private finished: { finishReason: FinishReason; usage: Usage | undefined } | undefined;

  constructor(private readonly label: string) {}

  get complete(): boolean {
    return this.finished !== undefined;
  }

  /** Provider events for one stream event; throws for an error the stream reports. */
  *read(event: StreamEvent): Generator<ProviderEvent> {
    switch (event.type) {
      case 'response.output_text.delta':
        if (event.delta) {
          this.text += event.delta;
          yield { type: 'text_delta', text: event.delta };
        }
        return;
      case 'response.reasoning_summary_text.delta': {
        if (!event.delta) return;
        // Summary parts are paragraphs of one thought; shown with a blank line between them.
        const part = `${event.output_index}:${event.summary_index}`;
        const text = this.lastSummary !== undefined && this.lastSummary !== part ? `\n\n${event.delta}` : event.delta;
        this.lastSummary = part;
        this.reasoning += text;
        yield { type: 'reasoning_delta', text };
        return;
      }
      case 'response.output_item.added':
        if (event.item?.type === 'function_call' && event.output_index !== undefined) {
          const call = { callId: String(event.item.call_id ?? ''), name: String(event.item.name ?? ''), arguments: '', done: false };
          this.calls.set(event.output_index, call);
          yield { type: 'tool_call_delta', index: this.calls.size - 1, id: call.callId, name: call.name };
        }
        return;
      case 'response.function_call_arguments.delta': {
        const call = this.calls.get(event.output_index ?? -1);
        if (call && event.delta) call.arguments += event.delta;
        return;
      }
      case 'response.function_call_arguments.done': {
        const call = this.calls.get(event.output_index ?? -1);
        if (call && typeof event.arguments === 'string') call.arguments = event.arguments;
        return;
      }
      case 'response.output_item.done':
        this.itemDone(event);
        return;
      case 'response.completed':
      case 'response.incomplete':
        this.finished = { finishReason: finishOf(event.response), usage: readUsage(event.response?.usage) };
        return;
      case 'response.failed':
        throw streamError(this.label, (event.response?.error as { code?: string; message?: string } | undefined) ?? {});
      case 'error':
        throw streamError(this.label, event);
      default:
        return;
    }
  }

  private itemDone(event: StreamEvent): void {
    const item = event.item;
    if (item?.type === 'reasoning') {
      // Without its encrypted content an item cannot go back when nothing is stored ("item not found").
      if (typeof item.encrypted_content !== 'string') return;
      this.reasoningItems.push({ type: 'reasoning', id: String(item.id), summary: (item.summary as ReasoningItem['summary'] | undefined) ?? [], encrypted_content: item.encrypted_content });
    } else if (item?.type === 'web_search_call' && typeof item.id === 'string') {
      this.searches++;
      this.reasoningItems.push({ ...item } as WebSearchCallItem);
    } else if (item?.type === 'message' && Array.isArray(item.content)) {
      for (const part of item.content as Array<{ type?: string; annotations?: unknown }>) {
        if (part.type === 'output_text' && Array.isArray(part.annotations)) this.citations.push(...urlCitations(part.annotations));
      }
    } else if (item?.type === 'function_call' && event.output_index !== undefined) {
      const call = this.calls.get(event.output_index) ?? { callId: '', name: '', arguments: '', done: false };
      this.calls.set(event.output_index, { callId: String(item.call_id ?? call.callId), name: String(item.name ?? call.name), arguments: typeof item.arguments === 'string' ? item.arguments : call.arguments, done: true });
    }
  }

  /** The reply, once the stream ended. */
  result(): ReadReply {
    if (!this.finished) throw new ProviderError('stream_cut', `${this.label}: the stream ended before the reply was finished.`);
    // A call the server never finished (an incomplete reply) is kept so the loop can answer it as cut off.
    const toolCalls = [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => ({ id: call.callId, name: call.name, arguments: call.arguments }));
    const finishReason = this.finished.finishReason === 'stop' && toolCalls.length ? 'tool_calls' : this.finished.finishReason;
    return { text: this.text, reasoning: this.reasoning, reasoningItems: this.reasoningItems, toolCalls, finishReason, usage: this.finished.usage, citations: this.citations, searches: this.searches };
  }
}

function urlCitations(annotations: unknown[]): Citation[] {
  return annotations.flatMap((raw): Citation[] => {
    const annotation = raw as { type?: unknown; url?: unknown; title?: unknown };
    if (annotation.type !== 'url_citation' || typeof annotation.url !== 'string') return [];
    return [{ url: annotation.url, ...(typeof annotation.title === 'string' && annotation.title ? { title: annotation.title } : {}) }];
  });
}

function finishOf(response: Record<string, unknown> | undefined): FinishReason {
  if (response?.status !== 'incomplete') return 'stop';
  const reason = (response.incomplete_details as { reason?: string } | undefined)?.reason;
  return reason === 'content_filter' ? 'content_filter' : reason === 'max_output_tokens' ? 'length' : 'other';
}

export function readUsage(raw: unknown): Usage | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const usage = raw as { input_tokens?: number; output_tokens?: number; input_tokens_details?: { cached_tokens?: number }; output_tokens_details?: { reasoning_tokens?: number } };
  return {
    inputTokens: usage.input_tokens ?? 0,
    outputTokens: usage.output_tokens ?? 0,
    cachedInputTokens: usage.input_tokens_details?.cached_tokens ?? 0,
    cacheWriteTokens: 0,
    reasoningTokens: usage.output_tokens_details?.reasoning_tokens ?? 0,
  };
}

/** An error the stream itself reports (an `error` event or `response.failed`), classed by its code. */
function streamError(label: string, error: { code?: string | null; message?: string }): ProviderError {
  const code = error.code ?? '';
  const message = `${label} reported an error mid-stream: ${error.message ?? code ?? 'unknown error'}${code ? ` (${code})` : ''}`;
  return new ProviderError(kindOfCodes(code)?.kind ?? 'server', message);
}
