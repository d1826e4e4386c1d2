import type { AssistantMessage } from '../contracts/messages.js';

/** The GenAI semantic conventions' attribute names this exporter writes. */
export const GEN_AI = {
  operation: 'gen_ai.operation.name',
  provider: 'gen_ai.provider.name',
  agentName: 'gen_ai.agent.name',
  conversation: 'gen_ai.conversation.id',
  requestModel: 'gen_ai.request.model',
  temperature: 'gen_ai.request.temperature',
  maxTokens: 'gen_ai.request.max_tokens',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolArguments: 'gen_ai.tool.call.arguments',
  toolResult: 'gen_ai.tool.call.result',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  errorType: 'error.type',
} as const;

/** A user's text in the conventions' message shape (a JSON string attribute). */
export function userMessages(text: string): string {
  return JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: text }] }]);
}

/**
 * A reply in the conventions' output message shape (`gen_ai.output.messages` on a chat span, or a
 * run's answer on its invoke_agent span): its text, then its tool calls, and the finish_reason the
 * schema requires.
 */
export function outputMessages(message: Pick<AssistantMessage, 'content' | 'toolCalls'>, finishReason: string): string {
  const parts: unknown[] = [];
  if (message.content) parts.push({ type: 'text', content: message.content });
  for (const call of message.toolCalls) parts.push({ type: 'tool_call', id: call.id, name: call.name, arguments: parsedOrRaw(call.arguments) });
  return JSON.stringify([{ role: 'assistant', parts, finish_reason: conventionFinishReason(finishReason) }]);
}

/** Ours in the conventions' words where they differ (`tool_calls` is their `tool_call`); others as they are. */
function conventionFinishReason(finishReason: string): string {
  return finishReason === 'tool_calls' ? 'tool_call' : finishReason;
}

function parsedOrRaw(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
