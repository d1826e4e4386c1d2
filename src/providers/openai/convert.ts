import type { ChatCompletionContentPart, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ImageRef, Message, ToolMessage } from '../../contracts/messages.js';
import type { ToolSchema } from '../../contracts/provider.js';
import { replayedReasoning } from './reasoning.js';
import type { ToolWireMap } from '../shared/tool-ids.js';
import { PrefixMap } from '../../contracts/prefix-memo.js';

export interface ConvertOptions {
  provider: string;
  model: string;
  /** Send `reasoning_content` back (DeepSeek/Kimi thinking with tools, GLM require it). */
  replayReasoning: boolean;
  /** Rewrites ids the endpoint would reject (Mistral's 9 characters, OpenAI's 40). */
  wire?: ToolWireMap;
}

/**
 * Chat Completions tool messages carry text only, so images a tool returned (read_file on a
 * picture) follow the run of tool messages in one user message that names the calls they came from.
 */
export function toOpenAIMessages(
  messages: Message[],
  options: ConvertOptions,
  /** Each message already converted (the same options), e.g. by a WireMessages cache. */
  converted?: readonly ChatCompletionMessageParam[],
): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  let held: ToolMessage[] = [];
  const flush = () => {
    if (held.length) out.push(toolImagesMessage(held));
    held = [];
  };
  messages.forEach((message, i) => {
    if (message.role !== 'tool') flush();
    out.push(converted?.[i] ?? toOpenAIMessage(message, options));
    if (message.role === 'tool' && message.images?.length) held.push(message);
  });
  flush();
  return out;
}

/**
 * Converted messages kept from request to request: the history is sent again every round and only
 * its new messages need converting. For ids sent as they are (a remapping format records each id
 * in the request's own map, so it converts afresh).
 */
export class WireMessages {
  private cache: { key: string; map: PrefixMap<Message, ChatCompletionMessageParam> } | undefined;

  convert(messages: Message[], options: ConvertOptions): ChatCompletionMessageParam[] {
    const key = `${options.provider}\u0000${options.model}\u0000${options.replayReasoning}`;
    if (this.cache?.key !== key) this.cache = { key, map: new PrefixMap((message) => toOpenAIMessage(message, options)) };
    return toOpenAIMessages(messages, options, this.cache.map.map(messages));
  }
}

/** An image as Chat Completions takes it: a data URL in an `image_url` part. */
export function imagePart(image: ImageRef): ChatCompletionContentPart {
  return { type: 'image_url', image_url: { url: `data:${image.mediaType};base64,${image.data}` } };
}

function toolImagesMessage(results: ToolMessage[]): ChatCompletionMessageParam {
  const content: ChatCompletionContentPart[] = [];
  for (const result of results) {
    content.push({ type: 'text', text: `The image${result.images!.length === 1 ? '' : 's'} returned by ${result.name} (call ${result.toolCallId}):` });
    content.push(...result.images!.map(imagePart));
  }
  return { role: 'user', content };
}

function toOpenAIMessage(message: Message, options: ConvertOptions): ChatCompletionMessageParam {
  const wireId = (id: string) => options.wire?.id(id) ?? id;
  switch (message.role) {
    case 'system':
      return { role: message.role, content: message.content };
    case 'user':
      if (!message.images?.length) return { role: 'user', content: message.content };
      return { role: 'user', content: [...(message.content ? [{ type: 'text' as const, text: message.content }] : []), ...message.images.map(imagePart)] };
    case 'tool':
      return { role: 'tool', tool_call_id: wireId(message.toolCallId), content: message.content };
    case 'assistant': {
      // Call-only replies carry "" rather than null: several compatible servers reject null.
      const wire: ChatCompletionMessageParam & Record<string, unknown> = { role: 'assistant', content: message.content };
      if (message.toolCalls.length > 0) {
        wire.tool_calls = message.toolCalls.map((call) => ({
          id: wireId(call.id),
          type: 'function' as const,
          function: { name: call.name, arguments: call.arguments },
        }));
      }
      return { ...wire, ...replayedReasoning(message, options) };
    }
  }
}

export function toOpenAITools(tools: ToolSchema[]): ChatCompletionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}
