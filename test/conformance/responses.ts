import { ResponsesProvider } from '../../src/providers/openai-responses/responses-provider.js';
import { startResponsesServer, type ResponsesRequestBody, type ResponsesStep } from '../support/responses-server.js';
import type { ProtocolUnderTest, ServerStep } from './protocol.js';

function toResponsesStep(step: ServerStep): ResponsesStep {
  return step;
}

/**
 * OpenAI Responses with a reasoning model and nothing stored: the server refuses a call sent
 * without its turn's encrypted reasoning item, so the replay is enforced, not just observed.
 */
export const responses: ProtocolUnderTest = {
  name: 'responses',
  start: (script) => startResponsesServer(script.map(toResponsesStep), { reasoningModel: () => true }),
  provider: (url, options) => new ResponsesProvider({ apiKey: 'test-key', baseURL: url, reasoning: () => true, ...options }),
  reasoningReplayed: (request, reasoning) =>
    (request as ResponsesRequestBody).input.some(
      (item) => item.type === 'reasoning' && typeof item.encrypted_content === 'string' && (item.summary as Array<{ text: string }>).some((part) => part.text === reasoning),
    ),
};
