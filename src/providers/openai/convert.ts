import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { Message } from '../../contracts/messages.js';
import type { ToolSchema } from '../../contracts/provider.js';
import { replayedReasoning } from './reasoning.js';
import type { ToolWireMap } from '../shared/tool-ids.js';

export interface ConvertOptions {
  provider: string;
  model: string;
  /** Send `reasoning_content` back (DeepSeek/Kimi thinking with tools, GLM require it). */
  replayReasoning: boolean;
  /** Rewrites ids the endpoint would reject (Mistral's 9 characters, OpenAI's 40). */
  wire?: ToolWireMap;
}

export function toOpenAIMessages(messages: Message[], options: ConvertOptions): ChatCompletionMessageParam[] {
  const wireId = (id: string) => options.wire?.id(id) ?? id;
  return messages.map((message): ChatCompletionMessageParam => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content };
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
  });
}

export function toOpenAITools(tools: ToolSchema[]): ChatCompletionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}
