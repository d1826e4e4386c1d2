import type { ContentBlockParam, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { Citation, ToolCall, Usage } from '../../contracts/messages.js';
import type { ProviderEvent } from '../../contracts/provider.js';
import type { ThinkingBlock } from './convert.js';
import { jsonText } from '../../contracts/canonical-json.js';
import { parseJson } from '../../contracts/bounded-json.js';
import { ProviderError } from '../../contracts/provider-error.js';

/** One content block being rebuilt from its start event and deltas. */
type Block =
  /** `citations` as received (web_search_result_location with its encrypted_index): echoed unchanged. */
  | { type: 'text'; text: string; citations: Array<Record<string, unknown>> }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; json: string; startInput: unknown }
  /** Server-side blocks (server_tool_use, web search results…): kept whole for a pause_turn echo. */
  | { type: 'other'; raw: Record<string, unknown>; json: string };

/** Raw usage fields, as message_start and message_delta report them (cumulative). */
export interface WireUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  /** The writes split by lifetime (cache_creation_input_tokens is their sum). */
  cache_creation?: { ephemeral_5m_input_tokens?: number | null; ephemeral_1h_input_tokens?: number | null } | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}

/**
 * Rebuilds one reply from Messages API stream events. `add` returns the provider events to yield
 * for each wire event; the finished reply is read with `calls()`, `text()`, `thinking()`.
 */
export class MessageAccumulator {
  private readonly blocks = new Map<number, Block>();
  private usage: WireUsage = {};
  stopReason: string | null = null;
  private started = false;
  /** True once message_stop arrived: a stream that ends before it was cut. */
  stopped = false;

  add(event: RawMessageStreamEvent): ProviderEvent[] {
    switch (event.type) {
      case 'message_start':
        // A second message_start inside one reply is two replies spliced together: neither can be trusted.
        if (this.started) throw new ProviderError('stream_cut', 'The stream began a second message inside one reply (a second message_start); the reply was refused.');
        this.started = true;
        this.mergeUsage(event.message.usage as WireUsage);
        return [];
      case 'message_delta':
        this.mergeUsage(event.usage as WireUsage);
        if (event.delta.stop_reason) this.stopReason = event.delta.stop_reason;
        return [];
      case 'message_stop':
        this.stopped = true;
        return [];
      case 'content_block_start':
        return this.addBlock(event.index, event.content_block as unknown as Record<string, unknown>, false);
      case 'content_block_delta':
        return this.delta(event.index, event.delta as unknown as Record<string, unknown>);
      case 'content_block_stop':
        return [];
      default:
        return [];
    }
  }

  /**
   * Adds a block: a whole one (a non-streamed reply) or a stream's opening one, whose text is
   * normally empty but is kept if a server sends some. A streamed tool_use opens with `input: {}`
   * that its deltas replace, so only a whole block's input counts.
   */
  addBlock(index: number, raw: Record<string, unknown>, complete = true): ProviderEvent[] {
    const events = this.start(index, raw);
    const block = this.blocks.get(index)!;
    if (block.type === 'text' && typeof raw.text === 'string') events.push(...this.delta(index, { type: 'text_delta', text: raw.text }));
    if (block.type === 'thinking' && typeof raw.thinking === 'string') events.push(...this.delta(index, { type: 'thinking_delta', thinking: raw.thinking }));
    if (complete && (block.type === 'tool_use' || block.type === 'other') && raw.input !== undefined) block.json = jsonText(raw.input);
    return events;
  }

  setUsage(usage: WireUsage, stopReason: string | null): void {
    this.mergeUsage(usage);
    this.stopReason = stopReason;
    this.stopped = true;
  }

  private start(index: number, raw: Record<string, unknown>): ProviderEvent[] {
    const text = (key: string) => (typeof raw[key] === 'string' ? (raw[key] as string) : '');
    switch (raw.type) {
      case 'text':
        this.blocks.set(index, { type: 'text', text: '', citations: Array.isArray(raw.citations) ? [...(raw.citations as Array<Record<string, unknown>>)] : [] });
        return [];
      case 'thinking':
        this.blocks.set(index, { type: 'thinking', thinking: '', signature: text('signature') });
        return [];
      case 'redacted_thinking':
        this.blocks.set(index, { type: 'redacted_thinking', data: text('data') });
        return [];
      case 'tool_use': {
        const block = { type: 'tool_use' as const, id: text('id'), name: text('name'), json: '', startInput: raw.input };
        this.blocks.set(index, block);
        return [{ type: 'tool_call_delta', index: this.callPosition(index), id: block.id, name: block.name }];
      }
      default:
        this.blocks.set(index, { type: 'other', raw: { ...raw }, json: '' });
        return [];
    }
  }

  private delta(index: number, delta: Record<string, unknown>): ProviderEvent[] {
    const block = this.blocks.get(index);
    const value = (key: string) => (typeof delta[key] === 'string' ? (delta[key] as string) : '');
    if (!block) return [];
    if (delta.type === 'text_delta' && block.type === 'text') {
      block.text += value('text');
      return value('text') ? [{ type: 'text_delta', text: value('text') }] : [];
    }
    if (delta.type === 'thinking_delta' && block.type === 'thinking') {
      block.thinking += value('thinking');
      return value('thinking') ? [{ type: 'reasoning_delta', text: value('thinking') }] : [];
    }
    if (delta.type === 'citations_delta' && block.type === 'text' && delta.citation && typeof delta.citation === 'object') block.citations.push(delta.citation as Record<string, unknown>);
    if (delta.type === 'signature_delta' && block.type === 'thinking') block.signature += value('signature');
    if (delta.type === 'input_json_delta' && (block.type === 'tool_use' || block.type === 'other')) block.json += value('partial_json');
    return [];
  }

  private callPosition(index: number): number {
    return [...this.ordered()].filter(([at, block]) => block.type === 'tool_use' && at < index).length;
  }

  private *ordered(): Iterable<[number, Block]> {
    yield* [...this.blocks.entries()].sort(([a], [b]) => a - b);
  }

  private mergeUsage(usage: WireUsage | undefined): void {
    if (!usage) return;
    for (const [key, value] of Object.entries(usage)) {
      if (value !== null && value !== undefined) (this.usage as Record<string, unknown>)[key] = value;
    }
  }

  text(): string {
    return [...this.ordered()].map(([, block]) => (block.type === 'text' ? block.text : '')).join('');
  }

  /** Calls with their arguments as the raw JSON text received (a tool with no input sends `{}`). */
  calls(): ToolCall[] {
    return [...this.ordered()].flatMap(([, block]) =>
      block.type === 'tool_use' ? [{ id: block.id, name: block.name, arguments: block.json || jsonText(block.startInput ?? {}) }] : [],
    );
  }

  thinking(): ThinkingBlock[] {
    return [...this.ordered()].flatMap(([, block]): ThinkingBlock[] => {
      if (block.type === 'thinking') return [{ type: 'thinking', thinking: block.thinking, signature: block.signature }];
      if (block.type === 'redacted_thinking') return [{ type: 'redacted_thinking', data: block.data }];
      return [];
    });
  }

  /** The reply as request blocks, for continuing a paused turn exactly where it stopped. */
  echo(): ContentBlockParam[] {
    return [...this.ordered()].flatMap(([, block]): ContentBlockParam[] => {
      switch (block.type) {
        case 'text':
          if (!block.text.trim()) return [];
          return [(block.citations.length ? { type: 'text', text: block.text, citations: block.citations } : { type: 'text', text: block.text }) as ContentBlockParam];
        case 'thinking':
        case 'redacted_thinking':
          return [block];
        case 'tool_use':
          return [{ type: 'tool_use', id: block.id, name: block.name, input: block.json ? safeParse(block.json) : (block.startInput ?? {}) }];
        case 'other':
          return [(block.json ? { ...block.raw, input: safeParse(block.json) } : block.raw) as unknown as ContentBlockParam];
      }
    });
  }

  /** Server-side blocks (a search and its results) or citations: the reply must go back as it came. */
  hasServerContent(): boolean {
    return [...this.blocks.values()].some((block) => block.type === 'other' || (block.type === 'text' && block.citations.length > 0));
  }

  /** The web searches the server ran for this reply. */
  searches(): number {
    return [...this.blocks.values()].filter((block) => block.type === 'other' && block.raw.type === 'server_tool_use' && block.raw.name === 'web_search').length;
  }

  /** The web pages the text cites. */
  citations(): Citation[] {
    return [...this.ordered()].flatMap(([, block]) =>
      block.type === 'text'
        ? block.citations.filter((c) => c.type === 'web_search_result_location' && typeof c.url === 'string').map((c) => ({ url: c.url as string, ...(typeof c.title === 'string' ? { title: c.title } : {}), ...(typeof c.cited_text === 'string' ? { citedText: c.cited_text } : {}) }))
        : [],
    );
  }

  /** input + cache writes + cache reads is the whole prompt; cache reads are the cached part. */
  normalisedUsage(): Usage | undefined {
    const u = this.usage;
    if (u.input_tokens === undefined && u.output_tokens === undefined) return undefined;
    const cached = u.cache_read_input_tokens ?? 0;
    const written = u.cache_creation_input_tokens ?? 0;
    const usage: Usage = {
      inputTokens: (u.input_tokens ?? 0) + written + cached,
      outputTokens: u.output_tokens ?? 0,
      cachedInputTokens: cached,
      cacheWriteTokens: written,
      reasoningTokens: u.output_tokens_details?.thinking_tokens ?? 0,
    };
    const written1h = Math.min(u.cache_creation?.ephemeral_1h_input_tokens ?? 0, written);
    if (written1h > 0) usage.cacheWrite1hTokens = written1h;
    return usage;
  }
}

function safeParse(json: string): unknown {
  const parsed = parseJson(json);
  return parsed.ok ? parsed.value : {};
}
