import { OpenAIProvider } from '../../src/providers/openai/openai-provider.js';
import { startChatServer, type ChatRequestBody, type ServerStep as ChatStep } from '../support/chat-server.js';
import type { ProtocolUnderTest, ServerStep } from './protocol.js';

function toChatStep(step: ServerStep): ChatStep {
  if (!('kind' in step)) return step;
  switch (step.kind) {
    case 'http_error':
      return step.message && step.body === undefined ? { ...step, body: { error: { message: step.message, type: 'server_error' } } } : step;
    case 'cut':
      return { kind: 'cut', reply: step.reply, afterChunks: step.afterEvents };
    case 'slow':
      return { kind: 'slow', reply: step.reply, frameDelayMs: step.delayMs };
    case 'stall':
      return { kind: 'stall', reply: step.reply, afterChunks: step.afterEvents };
    case 'silent':
      return step;
    case 'garbled':
      return { kind: 'garbled', reply: step.reply, afterChunks: step.afterEvents };
  }
}

/** OpenAI Chat Completions, with reasoning replayed as `reasoning_content` (the DeepSeek form). */
export const openai: ProtocolUnderTest = {
  name: 'openai',
  start: (script) => startChatServer(script.map(toChatStep)),
  provider: (url, options) => new OpenAIProvider({ apiKey: 'test-key', baseURL: url, replayReasoning: true, ...options }),
  reasoningReplayed: (request, reasoning) =>
    (request as ChatRequestBody).messages.some((message) => message.role === 'assistant' && message.reasoning_content === reasoning),
};
