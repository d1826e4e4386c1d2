import type { ImageRef, Message, ToolMessage } from '../../contracts/messages.js';
import type { ToolSchema } from '../../contracts/provider.js';
import { replayedReasoningItems } from './reasoning-items.js';
import type { ServerSearchOptions } from '../shared/server-search.js';

type InputPart = { type: 'input_text'; text: string } | { type: 'input_image'; image_url: string; detail: 'auto' };
/** One item of a Responses request's `input` (the subset this adapter sends). */
export type InputItem = Record<string, unknown> & { type: string };

/**
 * The provider-neutral history as Responses input items. Each assistant turn becomes its reasoning
 * items (same provider and model only), its text, then its function calls: the API requires a
 * turn's reasoning item before the calls it led to. Images a tool returned follow its results in
 * one user message, as on the Chat wire (a function_call_output carries text here).
 */
export function toResponsesInput(messages: Message[], target: { provider: string; model: string }): InputItem[] {
  const input: InputItem[] = [];
  let held: ToolMessage[] = [];
  const flush = () => {
    if (held.length) input.push(toolImagesMessage(held));
    held = [];
  };
  for (const message of messages) {
    if (message.role !== 'tool') flush();
    switch (message.role) {
      case 'system':
        input.push({ type: 'message', role: 'system', content: message.content });
        break;
      case 'user':
        input.push({ type: 'message', role: 'user', content: message.images?.length ? [...textPart(message.content), ...message.images.map(imagePart)] : message.content });
        break;
      case 'assistant': {
        input.push(...replayedReasoningItems(message, target).map((item) => ({ ...item })));
        if (message.content) input.push({ type: 'message', role: 'assistant', content: message.content });
        for (const call of message.toolCalls) input.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: call.arguments });
        break;
      }
      case 'tool':
        input.push({ type: 'function_call_output', call_id: message.toolCallId, output: message.content });
        if (message.images?.length) held.push(message);
        break;
    }
  }
  flush();
  return input;
}

export function toResponsesTools(tools: ToolSchema[]): InputItem[] {
  return tools.map((tool) => ({ type: 'function', name: tool.name, description: tool.description, parameters: tool.parameters, strict: false }));
}

/** OpenAI's own web search; allowed domains go in its filters (it has no blocked list nor per-reply cap). */
export function responsesWebSearchTool(options: ServerSearchOptions): InputItem {
  return { type: 'web_search', ...(options.allowedDomains?.length ? { filters: { allowed_domains: options.allowedDomains } } : {}) };
}

function textPart(text: string): InputPart[] {
  return text ? [{ type: 'input_text', text }] : [];
}

function imagePart(image: ImageRef): InputPart {
  return { type: 'input_image', image_url: `data:${image.mediaType};base64,${image.data}`, detail: 'auto' };
}

function toolImagesMessage(results: ToolMessage[]): InputItem {
  const content: InputPart[] = [];
  for (const result of results) {
    content.push({ type: 'input_text', text: `The image${result.images!.length === 1 ? '' : 's'} returned by ${result.name} (call ${result.toolCallId}):` });
    content.push(...result.images!.map(imagePart));
  }
  return { type: 'message', role: 'user', content };
}
