import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../src/tools/define-tool.js';
import { calculatorTool } from '../src/tools/builtin/calculator.js';
import { run } from '../src/core/loop.js';
import { GoogleProvider } from '../src/providers/google/google-provider.js';
import { ProviderError } from '../src/contracts/provider-error.js';
import { ToolRegistry } from '../src/tools/registry.js';
import type { AgentEvent } from '../src/contracts/events.js';
import { ofType } from './support/harness.js';
import { runGeminiScenario } from './support/gemini-harness.js';
import { rpcError, startGeminiServer } from './support/gemini-server.js';

function echoTools() {
  const seen: string[] = [];
  const make = (name: string) =>
    defineTool({ name, description: `${name} tool`, parameters: z.object({ v: z.string() }), readOnly: true, execute: async ({ v }) => (seen.push(`${name}:${v}`), `${name} says ${v}`) });
  return { tools: [make('echo'), make('other')], seen };
}

describe('Google Gemini errors', () => {
  const quotaBody = (quotaId: string, retryDelay?: string) =>
    rpcError(429, 'RESOURCE_EXHAUSTED', 'You exceeded your current quota, please check your plan and billing details.', [
      { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests', quotaId }] },
      ...(retryDelay ? [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay }] : []),
    ]);

  it.each([
    ['400 INVALID_ARGUMENT', 400, rpcError(400, 'INVALID_ARGUMENT', 'Invalid value at contents[0].role'), 'bad_request'],
    ['400 API_KEY_INVALID', 400, rpcError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [{ reason: 'API_KEY_INVALID' }]), 'auth'],
    ['403 PERMISSION_DENIED', 403, rpcError(403, 'PERMISSION_DENIED', 'Method doesn\'t allow unregistered callers.'), 'auth'],
    ['404 NOT_FOUND model', 404, rpcError(404, 'NOT_FOUND', 'models/gemini-9 is not found for API version v1beta'), 'bad_request'],
    ['429 per minute', 429, quotaBody('GenerateRequestsPerMinutePerProjectPerModel-FreeTier', '30s'), 'rate_limit'],
    ['429 per day', 429, quotaBody('GenerateRequestsPerDayPerProjectPerModel-FreeTier'), 'quota'],
    ['429 limit 0', 429, rpcError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded for metric: generate_content_free_tier_requests, limit: 0, model: gemini-2.5-pro'), 'quota'],
    ['429 plain', 429, rpcError(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).'), 'rate_limit'],
    ['500 INTERNAL', 500, rpcError(500, 'INTERNAL', 'An internal error has occurred.'), 'server'],
    ['503 UNAVAILABLE', 503, rpcError(503, 'UNAVAILABLE', 'The model is overloaded.'), 'server'],
    ['400 too many tokens', 400, rpcError(400, 'INVALID_ARGUMENT', 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).'), 'context_length'],
    ['400 payload too big', 400, rpcError(400, 'INVALID_ARGUMENT', 'Request payload size exceeds the limit: 20971520 bytes.'), 'context_length'],
  ])('maps %s to %s', async (_label, status, body, kind) => {
    const server = await startGeminiServer([{ kind: 'http_error', status, body }]);
    try {
      const provider = new GoogleProvider({ apiKey: 'k', baseURL: server.url });
      const error = await (async () => {
        for await (const _event of provider.stream({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'q' }], tools: [], temperature: 0 })) {
          // drained
        }
      })().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProviderError);
      expect((error as ProviderError).kind).toBe(kind);
      expect((error as ProviderError).status).toBe(status);
    } finally {
      await server.close();
    }
  });

  it('reads a refused connection as a network failure', async () => {
    const server = await startGeminiServer([]);
    await server.close();
    const provider = new GoogleProvider({ apiKey: 'k', baseURL: server.url });
    const error = await (async () => {
      for await (const _event of provider.stream({ model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'q' }], tools: [], temperature: 0 })) {
        // drained
      }
    })().catch((caught: unknown) => caught);
    expect((error as ProviderError).kind).toBe('network');
    expect((error as ProviderError).message).toMatch(/could not connect \(ECONNREFUSED\)/);
  });

  it('retries a per-minute 429 after the RetryInfo delay', async () => {
    const { result, events } = await runGeminiScenario(
      [{ kind: 'http_error', status: 429, body: quotaBody('GenerateRequestsPerMinutePerProjectPerModel-FreeTier', '0.02s') }, { text: 'after the wait' }],
    );
    expect(result.answer).toBe('after the wait');
    const [retry] = ofType(events, 'retry');
    expect(retry!.delayMs).toBe(20);
    expect(retry!.error).toMatch(/RESOURCE_EXHAUSTED/);
  });

  it('stops on a daily quota 429 without retrying', async () => {
    const { result, events, server } = await runGeminiScenario([{ kind: 'http_error', status: 429, body: quotaBody('GenerateRequestsPerDayPerProjectPerModel-FreeTier', '30s') }]);
    expect(result.stopReason).toBe('provider_error');
    expect(ofType(events, 'retry')).toEqual([]);
    expect(server.requests.length).toBe(1);
  });

  it('retries 503 UNAVAILABLE and a stream cut before its finish, then succeeds', async () => {
    const { result, events, server } = await runGeminiScenario([
      { kind: 'http_error', status: 503, body: rpcError(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.') },
      { kind: 'cut', reply: { text: 'partial text that never ends' }, afterEvents: 2 },
      { text: 'whole' },
    ]);
    expect(result.answer).toBe('whole');
    expect(ofType(events, 'retry').map((e) => e.error)).toEqual([expect.stringMatching(/UNAVAILABLE/), expect.stringMatching(/stream/)]);
    expect(server.requests.length).toBe(3);
  });

  it('asks again after MALFORMED_FUNCTION_CALL instead of taking the empty reply as the answer', async () => {
    const { result, events } = await runGeminiScenario([
      { kind: 'raw_chunks', chunks: [{ candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'MALFORMED_FUNCTION_CALL' }] }] },
      { text: 'second go' },
    ]);
    expect(result.answer).toBe('second go');
    expect(ofType(events, 'retry')[0]!.error).toMatch(/malformed tool call/);
  });

  it('does not run calls from a stream that ended without a finishReason', async () => {
    const { tools, seen } = echoTools();
    const { result } = await runGeminiScenario(
      [{ kind: 'raw_chunks', chunks: [{ candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'echo', args: { v: 'half' } } }] } }] }] }],
      { toolList: tools, retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 } },
    );
    expect(seen).toEqual([]);
    expect(result.stopReason).toBe('provider_error');
    expect(result.error).toMatch(/ended before the reply was finished/);
  });

  it('reads a bad key (400 API_KEY_INVALID) as auth and a too-long prompt as context_length, without retrying', async () => {
    const badKey = rpcError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }]);
    const auth = await runGeminiScenario([{ kind: 'http_error', status: 400, body: badKey }]);
    expect(auth.result.error).toMatch(/check GEMINI_API_KEY/);
    expect(auth.result.error).not.toContain('test-gemini-key');
    const long = await runGeminiScenario([
      { kind: 'http_error', status: 400, body: rpcError(400, 'INVALID_ARGUMENT', 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).') },
    ]);
    expect(long.result.stopReason).toBe('provider_error');
    expect(ofType(long.events, 'retry')).toEqual([]);
  });

  it('stops with aborted when the signal fires mid-run', async () => {
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    const server = await startGeminiServer([{ toolCalls: [{ name: 'echo', arguments: { v: 'a' } }] }, { text: 'never' }]);
    try {
      const { tools } = echoTools();
      const result = await run(
        { provider: new GoogleProvider({ apiKey: 'k', baseURL: server.url }), model: 'gemini-2.5-flash', input: 'go', tools: new ToolRegistry(tools), signal: controller.signal },
        (event) => {
          events.push(event);
          if (event.type === 'tool_call_end') controller.abort();
        },
      );
      expect(result.stopReason).toBe('aborted');
      expect(server.requests.length).toBe(1);
    } finally {
      await server.close();
    }
  });
});

describe('Google Gemini provider housekeeping', () => {
  it('retries an error the server sends inside the stream (a 503 chunk after some text)', async () => {
    const { result, events } = await runGeminiScenario([
      { kind: 'raw_chunks', chunks: [{ candidates: [{ content: { role: 'model', parts: [{ text: 'Par' }] } }] }, rpcError(503, 'UNAVAILABLE', 'overloaded')] },
      { text: 'recovered' },
    ]);
    expect(result.answer).toBe('recovered');
    expect(ofType(events, 'retry')[0]!.error).toMatch(/503 UNAVAILABLE: overloaded/);
  });

  it('treats its own time limit as a retryable failure, not an abort', async () => {
    // The limit also covers the second try's whole request: 300 ms was overrun by a healthy one at load 20.
    const { result, events } = await runGeminiScenario([{ kind: 'hang' }, { text: 'second try' }], { providerOptions: { idleTimeoutMs: 1_000 } });
    expect(result.answer).toBe('second try');
    expect(ofType(events, 'retry')[0]!.error).toMatch(/the stream stalled \(nothing received for 1 s\)/);
  });

  it('does not cut off a streamed reply that takes longer than timeoutMs while it keeps coming', async () => {
    const text = 'a steady reply, one small piece after another, for longer than the time limit';
    const { result, events } = await runGeminiScenario([{ kind: 'slow', reply: { text }, delayMs: 60 }], { providerOptions: { timeoutMs: 300, idleTimeoutMs: 10_000 } });
    expect(ofType(events, 'retry')).toEqual([]);
    expect(result).toMatchObject({ stopReason: 'answered', answer: text });
  });

  it('leaves no abort listener on the run signal after its requests', async () => {
    const { EventEmitter } = await import('node:events');
    const controller = new AbortController();
    const calls = Array.from({ length: 4 }, () => ({ toolCalls: [{ name: 'calculator', arguments: { expression: '1+1' } }] }));
    await runGeminiScenario([...calls, { text: 'done' }], { toolList: [calculatorTool], signal: controller.signal });
    expect(EventEmitter.getEventListeners(controller.signal, 'abort')).toEqual([]);
  });

  it('marks calls from another model with the placeholder signature Gemini 3 accepts', async () => {
    const server = await startGeminiServer([{ text: 'ok' }]);
    try {
      const provider = new GoogleProvider({ apiKey: 'k', baseURL: server.url });
      const messages = [
        { role: 'user' as const, content: 'q' },
        { role: 'assistant' as const, content: '', toolCalls: [{ id: 'a', name: 'calculator', arguments: '{"expression":"1"}' }, { id: 'b', name: 'calculator', arguments: '{"expression":"2"}' }] },
        { role: 'tool' as const, toolCallId: 'a', name: 'calculator', content: '1', isError: false },
        { role: 'tool' as const, toolCallId: 'b', name: 'calculator', content: '2', isError: false },
      ];
      await run({ provider, model: 'gemini-3-pro-preview', input: 'go on', messages });
      const parts = server.requests[0]!.body.contents![1]!.parts!;
      expect(parts.map((part) => part.thoughtSignature)).toEqual(['skip_thought_signature_validator', undefined]);
      expect(server.violations).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
