import { AnthropicProvider } from '../../src/providers/anthropic/anthropic-provider.js';
import type { AnthropicRequestBody } from '../support/anthropic-protocol-check.js';
import { apiError, startAnthropicServer, type AnthropicStep } from '../support/anthropic-server.js';
import type { ProtocolUnderTest, ServerStep } from './protocol.js';

function toAnthropicStep(step: ServerStep): AnthropicStep {
  if (!('kind' in step)) return step;
  switch (step.kind) {
    case 'http_error':
      return step.message && step.body === undefined ? { ...step, body: apiError('api_error', step.message) } : step;
    case 'cut':
    case 'stall':
    case 'silent':
    case 'garbled':
      return step;
    case 'slow':
      return { kind: 'slow', reply: step.reply, eventDelayMs: step.delayMs };
  }
}

/** Anthropic Messages with extended thinking on, so signed thinking must be replayed. */
export const anthropic: ProtocolUnderTest = {
  name: 'anthropic',
  start: (script) => startAnthropicServer(script.map(toAnthropicStep)),
  provider: (url, options) => new AnthropicProvider({ apiKey: 'test-key', baseURL: url, thinkingBudget: 2048, ...options }),
  reasoningReplayed: (request, reasoning) =>
    (request as AnthropicRequestBody).messages.some(
      (message) => message.role === 'assistant' && Array.isArray(message.content) && message.content.some((block) => block.type === 'thinking' && block.thinking === reasoning),
    ),
};
