import type { AssistantMessage, Usage } from '../../contracts/messages.js';
import type { ModelRequest } from '../../contracts/provider.js';

/** Roughly 4 characters per token for English text and code; cheap, and good enough for a brake. */
const CHARS_PER_TOKEN = 4;

/**
 * Usage for a reply whose server reported none (some compatible servers, cut-short streams):
 * the request as sent (messages and tool schemas) is the input, the reply's text, reasoning and
 * calls the output. Marked `estimated` so nobody mistakes it for a bill.
 */
export function estimateUsage(request: ModelRequest, reply: AssistantMessage): Usage {
  let input = 0;
  for (const message of request.messages) {
    input += message.content.length;
    if (message.role === 'assistant') input += callChars(message);
  }
  for (const tool of request.tools) input += tool.name.length + tool.description.length + JSON.stringify(tool.parameters).length;
  const reasoning = reply.reasoning?.length ?? 0;
  const output = reply.content.length + reasoning + callChars(reply);
  return {
    inputTokens: tokens(input),
    outputTokens: tokens(output),
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: tokens(reasoning),
    estimated: true,
  };
}

function callChars(message: AssistantMessage): number {
  return message.toolCalls.reduce((sum, call) => sum + call.name.length + call.arguments.length, 0);
}

function tokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}
