import { GoogleProvider } from '../../src/providers/google/google-provider.js';
import type { ScriptedReply } from '../../src/providers/scripted.js';
import { rpcError, startGeminiServer, type GeminiStep } from '../support/gemini-server.js';
import type { ProtocolUnderTest, ServerStep } from './protocol.js';

/** Gemini's REST protocol through @google/genai, against the strict Gemini test server. */
export const google: ProtocolUnderTest = {
  name: 'google',
  start: (script) => startGeminiServer(script.map(toGemini)),
  provider: (url, options) => new GoogleProvider({ apiKey: 'conformance-key', baseURL: url, ...options }),
};

/**
 * The neutral steps in Gemini's own terms. Gemini says how long to wait in the error body
 * (google.rpc.RetryInfo), not in a header the SDK would show us; and it sends each call whole,
 * so a call cut by the output limit arrives with no arguments rather than half of them.
 */
function toGemini(step: ServerStep): GeminiStep {
  if ('kind' in step) {
    if (step.kind === 'http_error' && step.headers?.['retry-after'] && step.body === undefined) {
      const details = [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${step.headers['retry-after']}s` }];
      return { kind: 'http_error', status: step.status, body: rpcError(step.status, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted.', details) };
    }
    // Gemini puts the real code in the body, also when the HTTP status says 200.
    if (step.kind === 'http_error' && step.message && step.body === undefined) {
      const code = step.status === 200 ? 503 : step.status;
      return { ...step, body: rpcError(code, code === 503 ? 'UNAVAILABLE' : 'UNKNOWN', step.message) };
    }
    return step;
  }
  return wholeCalls(step);
}

function wholeCalls(reply: ScriptedReply): ScriptedReply {
  if (!reply.toolCalls) return reply;
  return {
    ...reply,
    toolCalls: reply.toolCalls.map((call) => {
      if (typeof call.arguments !== 'string') return call;
      try {
        JSON.parse(call.arguments);
        return call;
      } catch {
        return { ...call, arguments: {} };
      }
    }),
  };
}
