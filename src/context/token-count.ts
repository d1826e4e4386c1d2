import type { Message } from '../contracts/messages.js';
import type { ToolSchema } from '../contracts/provider.js';
import { countText, type Encoder } from './count-text.js';
import { imagesTokens } from '../images/image-tokens.js';
import { PrefixSum } from '../contracts/prefix-memo.js';

/**
 * Token estimates with the o200k_base tokenizer (GPT-4o and later; close enough for other
 * vendors, and corrected by the provider's reported usage where it matters). The encoding is
 * loaded on first need: it costs ~100 ms, which a short first request should not pay.
 */
let encoder: Encoder | undefined;
let loading: Promise<Encoder> | undefined;
let shared: TokenCounter | undefined;

/** Tokens the chat format adds per message (role, separators), and once per request. */
export const MESSAGE_OVERHEAD = 4;
export const TOOL_CALL_OVERHEAD = 4;
export const REQUEST_OVERHEAD = 3;
const MERGE_CACHE_SIZE = 5_000;
/** Counting longer than this without a break would delay a Ctrl-C noticeably. */
const YIELD_EVERY_MS = 15;

/** Whether the tokenizer is loaded already (an exact count then costs no load). */
export function tokenizerLoaded(): boolean {
  return encoder !== undefined;
}

export function loadTokenizer(): Promise<Encoder> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then((module) => {
    // Its default keeps 100,000 merged pieces: tens of MB over a long session of varied outputs,
    // for a count that is cached per message anyway.
    module.setMergeCacheSize(MERGE_CACHE_SIZE);
    // Special-token text inside a tool output is counted, not rejected.
    const options = { disallowedSpecial: new Set<string>() };
    encoder = (text: string) => module.countTokens(text, options);
    return encoder;
  });
  return loading;
}

/** Counts tokens in messages; per-message counts are cached (history messages are never mutated). */
export class TokenCounter {
  private readonly cache = new WeakMap<Message, number>();

  private constructor(private readonly encode: Encoder) {}

  /** One shared counter, so the per-message cache survives from turn to turn. */
  static async create(): Promise<TokenCounter> {
    shared ??= new TokenCounter(encoder ?? (await loadTokenizer()));
    return shared;
  }

  /** Bounded in time for any text (see countText). */
  text(text: string): number {
    return countText(text, this.encode);
  }

  /**
   * Counts the messages not counted yet, letting the event loop run every few milliseconds (so
   * Ctrl-C is heard); stops early when `signal` is aborted. Later calls to `message` hit the cache.
   */
  async warm(messages: readonly Message[], signal?: AbortSignal): Promise<void> {
    let since = performance.now();
    for (const message of messages) {
      if (signal?.aborted) return;
      if (this.cache.has(message)) continue;
      this.message(message);
      if (performance.now() - since > YIELD_EVERY_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        since = performance.now();
      }
    }
  }

  message(message: Message): number {
    const cached = this.cache.get(message);
    if (cached !== undefined) return cached;
    let tokens = MESSAGE_OVERHEAD + this.text(message.content);
    if (message.role === 'assistant') {
      for (const call of message.toolCalls) tokens += TOOL_CALL_OVERHEAD + this.text(call.name) + this.text(call.arguments) + this.text(call.id);
    } else if (message.role === 'tool') {
      tokens += this.text(message.toolCallId) + imagesTokens(message.images);
    } else if (message.role === 'user') {
      tokens += imagesTokens(message.images);
    }
    this.cache.set(message, tokens);
    return tokens;
  }

  messages(messages: readonly Message[]): number {
    let total = REQUEST_OVERHEAD;
    for (const message of messages) total += this.message(message);
    return total;
  }

  tools(tools: readonly ToolSchema[]): number {
    return tools.length ? this.text(JSON.stringify(tools)) : 0;
  }
}

/**
 * A bound no tokenizer can exceed (every token is at least one byte of UTF-8), computed without
 * loading one. When it is under a threshold, the exact count is too, so the decision is the same.
 */
export function tokenUpperBound(messages: readonly Message[]): number {
  let total = REQUEST_OVERHEAD;
  for (const message of messages) total += messageUpperBound(message);
  return total;
}

/** tokenUpperBound over successive histories, counting only the messages new in each (see PrefixSum). */
export function historyUpperBound(): (messages: readonly Message[]) => number {
  const sum = new PrefixSum(messageUpperBound);
  return (messages) => REQUEST_OVERHEAD + sum.total(messages);
}

/** Per message object: the history is sent again every round and its messages are never mutated. */
const bounds = new WeakMap<Message, number>();

export function messageUpperBound(message: Message): number {
  const known = bounds.get(message);
  if (known !== undefined) return known;
  const bytes = messageBytes(message);
  bounds.set(message, bytes);
  return bytes;
}

function messageBytes(message: Message): number {
  let bytes = MESSAGE_OVERHEAD + Buffer.byteLength(message.content);
  if (message.role === 'assistant') {
    for (const call of message.toolCalls) bytes += TOOL_CALL_OVERHEAD + Buffer.byteLength(call.name) + Buffer.byteLength(call.arguments) + Buffer.byteLength(call.id);
  } else if (message.role === 'tool') {
    bytes += Buffer.byteLength(message.toolCallId) + imagesTokens(message.images);
  } else if (message.role === 'user') {
    bytes += imagesTokens(message.images);
  }
  return bytes;
}
