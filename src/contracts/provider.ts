import type { AssistantMessage, Message, Usage } from './messages.js';

/** A tool as the model sees it: the JSON Schema is derived once from the tool's zod schema. */
export interface ToolSchema {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /** Sent to be loaded by the provider's own tool search when a result references it (Anthropic's `defer_loading`). */
  deferLoading?: boolean;
}

export interface ModelRequest {
  model: string;
  messages: Message[];
  /** Empty means "no tools in this request" (the turn-limit hand-off uses that). */
  tools: ToolSchema[];
  temperature: number;
  maxTokens?: number;
  /** For a text protocol (prompt-JSON): unreadable replies in a row before the request fails (default 4). Native providers ignore it. */
  protocolErrorLimit?: number;
}

/** Why the model stopped producing this reply, normalised across providers. */
export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';

export interface ModelResponse {
  message: AssistantMessage;
  finishReason: FinishReason;
  /** Undefined when the server reported none. */
  usage?: Usage;
  /** How many of the reply's tool calls were recovered from its text (a server that leaked them). */
  leakedToolCalls?: number;
  /** Provider-specific parts of earlier replies this request could not send (another provider, model or wire made them). */
  leftOut?: LeftOut[];
}

/** Who made a reply, or is sent one: the wire is named where one provider speaks more than one ("chat", "responses"). */
export interface ReplyOrigin {
  provider: string;
  model: string;
  wire?: string;
}

/**
 * Parts of earlier replies a request left out because only their maker accepts them: `reasoning`
 * (thinking and its signatures, reasoning items, reasoning text) or `web_search` (a server tool's
 * searches and their results). The replies' text, calls and results are still sent.
 */
export interface LeftOut {
  part: 'reasoning' | 'web_search';
  from: ReplyOrigin;
  to: ReplyOrigin;
  /** How many earlier replies held it. */
  turns: number;
}

/**
 * A reply a text protocol (prompt-JSON) could not read. The provider itself sends `feedback` back
 * to the model and asks again, within the same `stream()` call; the loop only shows it.
 */
export interface ProtocolError {
  /** e.g. "no_json", "bad_json", "bad_shape". */
  reason: string;
  /** What was wrong, in a sentence. */
  error: string;
  /** What the model is told: the error and the reply contract. */
  feedback: string;
}

/** What a provider yields while a reply streams; always ends with exactly one `response`. */
export type ProviderEvent =
  | { type: 'text_delta'; text: string }
  | { type: 'reasoning_delta'; text: string }
  | { type: 'tool_call_delta'; index: number; id: string; name: string }
  /** A reply that could not be read; the provider re-asks the model before its one `response`. */
  | ({ type: 'protocol_error' } & ProtocolError)
  | { type: 'response'; response: ModelResponse };

export interface Provider {
  /** e.g. "openai", "deepseek", "scripted". */
  readonly name: string;
  stream(request: ModelRequest, signal?: AbortSignal): AsyncIterable<ProviderEvent>;
}
