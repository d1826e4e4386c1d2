import type { ContentBlockParam, ImageBlockParam, MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import type { AssistantMessage, ImageRef, Message, ProviderData } from '../../contracts/messages.js';
import type { ToolSchema } from '../../contracts/provider.js';
import { parseJson } from '../../contracts/bounded-json.js';

/** A thinking block as the API returned it; replayed byte-for-byte or not at all. */
export type ThinkingBlock = { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string };

/** What an Anthropic reply keeps in `providerData`. */
export interface AnthropicProviderData extends ProviderData {
  thinking: ThinkingBlock[];
  /** The reply's blocks exactly as received, when it holds server-tool blocks or citations. */
  content?: ContentBlockParam[];
}

export interface ConvertOptions {
  /** The provider name and model of this request: thinking is replayed only to its own origin. */
  provider: string;
  model: string;
}

export interface AnthropicConversation {
  system: string | undefined;
  messages: MessageParam[];
}

/** Shown in place of an empty tool result: the API rejects empty text. */
export const EMPTY_RESULT = '(no output)';

/**
 * Neutral history to Messages API shape. System messages become `system`; tool results become
 * `tool_result` blocks in the next user message, ahead of any text; consecutive messages of one
 * role merge (the API wants strict user/assistant alternation); empty text is never sent.
 */
export function toAnthropicConversation(messages: Message[], options: ConvertOptions): AnthropicConversation {
  const system: string[] = [];
  const wire: Array<{ role: 'user' | 'assistant'; results: ContentBlockParam[]; blocks: ContentBlockParam[] }> = [];
  const append = (role: 'user' | 'assistant', blocks: ContentBlockParam[], results: ContentBlockParam[] = []) => {
    if (blocks.length === 0 && results.length === 0) return;
    const last = wire[wire.length - 1];
    if (last && last.role === role) {
      last.results.push(...results);
      last.blocks.push(...blocks);
    } else {
      wire.push({ role, results, blocks });
    }
  };

  for (const message of messages) {
    switch (message.role) {
      case 'system':
        if (message.content.trim()) system.push(message.content);
        break;
      case 'user':
        append('user', [...textBlocks(message.content), ...(message.images ?? []).map(imageBlock)]);
        break;
      case 'tool': {
        const text = message.content.trim() ? message.content : EMPTY_RESULT;
        // A tool_result may hold image blocks beside its text (read_file on a picture).
        // A tool search's result names the deferred tools the API is to load (tool_reference blocks).
        const content = message.toolReferences?.length
          ? message.toolReferences.map((name) => ({ type: 'tool_reference' as const, tool_name: name }))
          : message.images?.length
            ? [{ type: 'text' as const, text }, ...message.images.map(imageBlock)]
            : text;
        append('user', [], [{ type: 'tool_result', tool_use_id: message.toolCallId, content, ...(message.isError ? { is_error: true } : {}) }]);
        break;
      }
      case 'assistant':
        append('assistant', assistantBlocks(message, options));
        break;
    }
  }
  return {
    system: system.length ? system.join('\n\n') : undefined,
    messages: wire.map(({ role, results, blocks }) => ({ role, content: [...results, ...blocks] })),
  };
}

/** An image as the Messages API takes it: a base64 source block. */
export function imageBlock(image: ImageRef): ImageBlockParam {
  return { type: 'image', source: { type: 'base64', media_type: image.mediaType, data: image.data } };
}

function textBlocks(text: string): ContentBlockParam[] {
  return text.trim() ? [{ type: 'text', text }] : [];
}

function assistantBlocks(message: AssistantMessage, options: ConvertOptions): ContentBlockParam[] {
  const exact = receivedBlocks(message, options);
  if (exact) return exact;
  const blocks: ContentBlockParam[] = [...replayableThinking(message.providerData, options)];
  blocks.push(...textBlocks(message.content));
  for (const call of message.toolCalls) {
    blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: toolInput(call.arguments) });
  }
  return blocks;
}

/**
 * A reply with server-tool blocks goes back as it came, to the provider and model that sent it,
 * so long as its calls are still the message's calls. Elsewhere it is rebuilt from the neutral
 * message: the searches and the text's citations are dropped, the text kept.
 */
function receivedBlocks(message: AssistantMessage, options: ConvertOptions): ContentBlockParam[] | undefined {
  const data = message.providerData;
  if (!data || !isOwnData(data, options)) return undefined;
  const content = (data as Partial<AnthropicProviderData>).content;
  if (!Array.isArray(content)) return undefined;
  const uses = content.filter((block) => block.type === 'tool_use').map((block) => (block as { id: string }).id);
  const calls = message.toolCalls.map((call) => call.id);
  return uses.length === calls.length && uses.every((id, i) => id === calls[i]) ? content : undefined;
}

/** Signed thinking is valid only for the provider and model that signed it; elsewhere it is dropped. */
function replayableThinking(data: ProviderData | undefined, options: ConvertOptions): ThinkingBlock[] {
  return data && isOwnData(data, options) ? (data as AnthropicProviderData).thinking : [];
}

/** Blocks this provider and model returned (thinking signed by it, its server-tool blocks): the only ones it may send back. */
export function isOwnData(data: ProviderData, options: { provider: string; model: string }): boolean {
  return data.provider === options.provider && data.model === options.model && Array.isArray(data.thinking);
}

/**
 * The API wants `input` as an object. Arguments that are not a JSON object (a call cut off by the
 * output limit, or a model's malformed JSON) go back as `{}`: their tool result already says why
 * they were not run.
 */
export function toolInput(raw: string): Record<string, unknown> {
  const parsed = parseJson(raw);
  const value = parsed.ok ? parsed.value : undefined;
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function toAnthropicTools(tools: ToolSchema[]): Tool[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { type: 'object', ...withoutDialect(tool.parameters) } as Tool['input_schema'],
    ...(tool.deferLoading ? { defer_loading: true } : {}),
  }));
}

function withoutDialect(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}
