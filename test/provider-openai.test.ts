import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../src/tools/define-tool.js';
import { calculatorTool } from '../src/tools/builtin/calculator.js';
import { ofType, runScenario } from './support/harness.js';

const chunk = (delta: unknown, finish: string | null = null, extra: Record<string, unknown> = {}) => ({
  id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }], ...extra,
});
const answer = { text: 'ok' };

function echoTool() {
  const seen: unknown[] = [];
  const tool = defineTool({ name: 'echo', description: 'e', parameters: z.object({ v: z.string() }), readOnly: true, execute: async ({ v }) => (seen.push(v), `echo ${v}`) });
  const other = defineTool({ name: 'other', description: 'o', parameters: z.object({ v: z.string() }), readOnly: true, execute: async ({ v }) => (seen.push(`other:${v}`), `other ${v}`) });
  return { tools: [tool, other], seen };
}

describe('streamed tool-call assembly (wire quirks)', () => {
  it('starts a new call when an index is reused with a different id (servers that number every call 0)', async () => {
    const { tools, seen } = echoTool();
    const { result } = await runScenario(
      [
        { kind: 'raw_chunks', chunks: [
          chunk({ tool_calls: [{ index: 0, id: 'a1', type: 'function', function: { name: 'echo', arguments: '{"v":' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '"one"}' } }] }),
          chunk({ tool_calls: [{ index: 0, id: 'b2', type: 'function', function: { name: 'echo', arguments: '{"v":"two"}' } }] }),
          chunk({}, 'tool_calls'),
        ] },
        answer,
      ],
      { toolList: tools },
    );
    expect(seen).toEqual(['one', 'two']);
    expect(result.messages[1]).toMatchObject({ toolCalls: [{ id: 'a1', arguments: '{"v":"one"}' }, { id: 'b2', arguments: '{"v":"two"}' }] });
  });

  it('without index: a new id or a new name starts a call, an empty id never does, ids and names replace', async () => {
    const { tools, seen } = echoTool();
    const { result } = await runScenario(
      [
        { kind: 'raw_chunks', chunks: [
          chunk({ tool_calls: [{ id: 'c1', function: { name: 'echo', arguments: '{"v":"x' } }] }),
          chunk({ tool_calls: [{ id: '', function: { name: 'echo', arguments: '1"}' } }] }),
          chunk({ tool_calls: [{ function: { name: 'other', arguments: '{"v":"y"}' } }] }),
          chunk({ tool_calls: [{ id: 'c3', function: { name: 'echo', arguments: '{"v":"z"}' } }] }),
          chunk({}, 'tool_calls'),
        ] },
        answer,
      ],
      { toolList: tools },
    );
    const calls = (result.messages[1] as { toolCalls: { id: string; name: string; arguments: string }[] }).toolCalls;
    expect(calls.map((c) => [c.name, c.arguments])).toEqual([['echo', '{"v":"x1"}'], ['other', '{"v":"y"}'], ['echo', '{"v":"z"}']]);
    expect(calls[0]!.id).toBe('c1');
    expect(calls[2]!.id).toBe('c3');
    expect(calls[1]!.id).not.toBe('');
    expect(seen).toEqual(['x1', 'other:y', 'z']);
  });

  it('accepts arguments sent as an object, and a "stop" finish that carries complete calls is still a tool turn', async () => {
    const { tools, seen } = echoTool();
    const { result } = await runScenario(
      [
        { kind: 'raw_chunks', chunks: [
          chunk({ tool_calls: [{ index: 0, id: 'o1', type: 'function', function: { name: 'echo', arguments: { v: 'obj' } } }] }),
          chunk({}, 'stop'),
        ] },
        answer,
      ],
      { toolList: tools },
    );
    expect(seen).toEqual(['obj']);
    expect(result.answer).toBe('ok');
    expect(result.turns).toBe(2);
  });

  it('reads usage (prompt, completion, cached) from the final chunk', async () => {
    const { events, result } = await runScenario([
      { kind: 'raw_chunks', chunks: [
        chunk({ content: 'hi' }),
        chunk({}, 'stop'),
        { id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [], usage: { prompt_tokens: 120, completion_tokens: 7, total_tokens: 127, prompt_tokens_details: { cached_tokens: 100 } } },
      ] },
    ]);
    expect(ofType(events, 'usage')[0]!.usage).toEqual({ inputTokens: 120, outputTokens: 7, cachedInputTokens: 100, cacheWriteTokens: 0, reasoningTokens: 0 });
    expect(result.usage.inputTokens).toBe(120);
  });

  it('streams text deltas in pieces and assembles them', async () => {
    const { events, result } = await runScenario([{ text: 'A fairly long streamed answer.' }]);
    expect(ofType(events, 'text_delta').length).toBeGreaterThan(3);
    expect(ofType(events, 'text_delta').map((e) => e.text).join('')).toBe(result.answer);
  });

  it('works without streaming too', async () => {
    const { result, server } = await runScenario(
      [{ toolCalls: [{ name: 'calculator', arguments: { expression: '2^10' } }] }, (body) => ({ text: String(body.messages.at(-1)!.content) })],
      { toolList: [calculatorTool], stream: false },
    );
    expect(server.requests[0]!.stream).toBeFalsy();
    expect(result.answer).toBe('2^10 = 1024');
  });

  it('keeps reasoning text as provider data on the assistant message', async () => {
    const { result, events } = await runScenario([{ reasoning: 'thinking it over', text: 'answer' }]);
    expect(ofType(events, 'reasoning_delta').map((e) => e.text).join('')).toBe('thinking it over');
    expect(result.messages[1]).toMatchObject({ reasoning: 'thinking it over', providerData: { provider: 'openai', model: 'test-model', reasoning_content: 'thinking it over' } });
  });
});

describe('provider errors', () => {
  it('does not retry a 401 and stops with provider_error', async () => {
    const { result, server, events } = await runScenario([{ kind: 'http_error', status: 401, body: { error: { message: 'Incorrect API key provided' } } }]);
    expect(result.stopReason).toBe('provider_error');
    expect(result.answer).toBeNull();
    expect(result.error).toMatch(/401.*Incorrect API key/);
    expect(server.requests).toHaveLength(1);
    expect(ofType(events, 'retry')).toHaveLength(0);
  });

  it('retries a 429 honouring retry-after-ms, and a 503, then succeeds', async () => {
    const { result, events } = await runScenario([
      { kind: 'http_error', status: 429, headers: { 'retry-after-ms': '20' }, body: { error: { message: 'Rate limit reached' } } },
      { kind: 'http_error', status: 503, body: { error: { message: 'overloaded' } } },
      { text: 'finally' },
    ]);
    expect(result.answer).toBe('finally');
    const retries = ofType(events, 'retry');
    expect(retries).toHaveLength(2);
    expect(retries[0]).toMatchObject({ attempt: 1, delayMs: 20 });
  });

  it('does not retry a spend-limit 429', async () => {
    const { result, server } = await runScenario([{ kind: 'http_error', status: 429, body: { error: { message: 'You exceeded your current quota', code: 'insufficient_quota' } } }]);
    expect(result.stopReason).toBe('provider_error');
    expect(server.requests).toHaveLength(1);
  });

  it('gives up after the retry budget with an honest provider_error', async () => {
    const fail = { kind: 'http_error' as const, status: 500 };
    const { result, server } = await runScenario([fail, fail, fail]);
    expect(result.stopReason).toBe('provider_error');
    expect(server.requests).toHaveLength(3);
  });

  it('retries a stream cut before its finish frame and never runs its half-received calls', async () => {
    const { tools, seen } = echoTool();
    const { result, events } = await runScenario(
      [
        { kind: 'cut', reply: { toolCalls: [{ name: 'echo', arguments: { v: 'half' } }] }, afterChunks: 3 },
        { toolCalls: [{ name: 'echo', arguments: { v: 'whole' } }] },
        answer,
      ],
      { toolList: tools },
    );
    expect(seen).toEqual(['whole']);
    expect(ofType(events, 'retry')).toHaveLength(1);
    expect(result.answer).toBe('ok');
  });
});

describe('abort', () => {
  it('stops at once mid-stream', async () => {
    const controller = new AbortController();
    const { server, result, events } = await runScenario([{ kind: 'slow', reply: { text: 'a very slow answer that takes a long time to stream' }, frameDelayMs: 100 }], {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'text_delta') controller.abort();
      },
    });
    expect(result.stopReason).toBe('aborted');
    expect(result.answer).toBeNull();
    // The slow stream has ~12 more frames; stopping must not wait for them: the client hung up on the
    // reply in progress (a client that read it to the end would never hang up, and this would time out).
    expect(await server.waitForHangUp()).toBe(1);
    expect(events.at(-1)).toMatchObject({ type: 'stop', reason: 'aborted' });
  });

  it('stops mid-tool and still leaves a result for every call in the history', async () => {
    const controller = new AbortController();
    const wait = defineTool({
      name: 'wait', description: 'w', parameters: z.object({}), readOnly: true,
      execute: (_, { signal }) => new Promise((resolve) => signal.addEventListener('abort', () => resolve('stopped'))),
    });
    const { result } = await runScenario(
      [{ toolCalls: [{ id: 'w1', name: 'wait', arguments: '{}' }, { id: 'w2', name: 'calculator', arguments: '{"expression":"1"}' }] }],
      {
        toolList: [wait, calculatorTool],
        signal: controller.signal,
        onEvent: (event) => {
          if (event.type === 'tool_call_start' && event.call.id === 'w1') setImmediate(() => controller.abort());
        },
      },
    );
    expect(result.stopReason).toBe('aborted');
    const toolMessages = result.messages.filter((m) => m.role === 'tool');
    expect(toolMessages.map((m) => m.toolCallId)).toEqual(['w1', 'w2']);
    expect(toolMessages[0]!.content).toMatch(/cancelled/);
  });
});
