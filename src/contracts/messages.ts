/**
 * Provider-neutral conversation types. Every provider adapter converts to and from these;
 * nothing outside src/providers knows a wire format.
 */

/** A tool call exactly as the model sent it. `arguments` is the raw JSON text as received. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** Opaque per-provider data that must be echoed back (reasoning text, signatures). */
export interface ProviderData {
  /** Which provider/model produced it; data is only replayed to the same one. */
  provider: string;
  model: string;
  [key: string]: unknown;
}

/** A source a provider's own web search cited for the reply (shown as "Sources:", kept in the session). */
export interface Citation {
  url: string;
  title?: string;
  /** The passage the reply quotes from the page, when the provider says. */
  citedText?: string;
}

export interface SystemMessage {
  role: 'system';
  content: string;
}

/** The image formats every supported provider accepts; detected from the bytes, never the name. */
export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/**
 * An image that rides beside a message's text. In memory `data` holds the bytes (base64); a
 * session file stores only `sha256` and keeps the bytes once in a file beside it (see StoredImageRef).
 */
export interface ImageRef {
  mediaType: ImageMediaType;
  /** The bytes, base64, exactly as sent. */
  data: string;
  /** Hex SHA-256 of the bytes: the image's name in the session's image folder. */
  sha256: string;
  /** What the user called it (a file name), for display only. */
  name?: string;
  width?: number;
  height?: number;
}

/** An image as a session file records it: everything but the bytes. */
export type StoredImageRef = Omit<ImageRef, 'data'>;

export interface UserMessage {
  role: 'user';
  content: string;
  /** Images the user attached; sent after the text, in this order. */
  images?: ImageRef[];
}

export interface AssistantMessage {
  role: 'assistant';
  /** The reply's text; empty string (never null) when the reply only calls tools. */
  content: string;
  /** Tool calls as received, never rewritten. Empty when the reply is an answer. */
  toolCalls: ToolCall[];
  /** Reasoning the model showed, if any (for display; replay goes through providerData). */
  reasoning?: string;
  /** Sources of a provider's server-side web search, in first-cited order, each URL once. */
  citations?: Citation[];
  providerData?: ProviderData;
}

export interface ToolMessage {
  role: 'tool';
  /** The id of the call this answers, byte-for-byte. */
  toolCallId: string;
  /** The name of the tool that was called (some providers need it on the result). */
  name: string;
  content: string;
  isError: boolean;
  /** Images the tool returned (read_file on a picture); providers that cannot carry them in a result attach them right after. */
  images?: ImageRef[];
  /**
   * Tools a tool search found, for a wire that loads deferred tools itself (Anthropic's
   * `tool_reference` blocks); every other wire sends `content`.
   */
  toolReferences?: string[];
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/**
 * What one request cost in tokens, the same on every provider.
 *
 * `inputTokens` is ALL prompt tokens: uncached + read from the cache + written to the cache.
 * (OpenAI, Gemini and DeepSeek report it that way; Anthropic's `input_tokens` is only the
 * uncached part, so its adapter adds `cache_read_input_tokens` and `cache_creation_input_tokens`.)
 * The three parts are: `cachedInputTokens` (reads, billed at the cached price),
 * `cacheWriteTokens` (writes, billed with a surcharge) and the rest, billed at the input price.
 */
export interface Usage {
  /** All prompt tokens: uncached + cache reads + cache writes. */
  inputTokens: number;
  /** Includes reasoning tokens. */
  outputTokens: number;
  /** Prompt tokens served from the provider's cache (a part of inputTokens). */
  cachedInputTokens: number;
  /**
   * Prompt tokens written to the cache by this request (a part of inputTokens). Only providers
   * that bill writes separately report it (Anthropic); elsewhere 0.
   */
  cacheWriteTokens: number;
  /**
   * The part of cacheWriteTokens written with a one-hour lifetime (billed at 2× input on
   * Anthropic); the rest of the writes were five-minute ones (1.25×). Absent means 0.
   */
  cacheWrite1hTokens?: number;
  reasoningTokens: number;
  /** Set when the server reported no usage and the counts were estimated (about 4 characters a token). */
  estimated?: boolean;
}

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
}

/** Sums two usages; a count missing from a usage recorded before it existed counts as 0. */
export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
    cacheWriteTokens: (a.cacheWriteTokens ?? 0) + (b.cacheWriteTokens ?? 0),
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
  };
  const writes1h = (a.cacheWrite1hTokens ?? 0) + (b.cacheWrite1hTokens ?? 0);
  if (writes1h > 0) sum.cacheWrite1hTokens = writes1h;
  // A total with any estimated part is an estimate.
  if (a.estimated || b.estimated) sum.estimated = true;
  return sum;
}
