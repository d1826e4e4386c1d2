/**
 * The same scenarios over every wire protocol: each adapter, through its real SDK, against a
 * strict local server speaking its protocol. A new adapter joins by adding a line to PROTOCOLS.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { run, type AgentOptions, type RunResult } from '../src/core/loop.js';
import type { AgentEvent } from '../src/contracts/events.js';
import type { AssistantMessage, Message, ToolMessage } from '../src/contracts/messages.js';
import { defineTool } from '../src/tools/define-tool.js';
import { ToolRegistry } from '../src/tools/registry.js';
import type { ProtocolUnderTest, ProviderTestOptions, ServerStep, WireServer } from './conformance/protocol.js';
import { PROTOCOLS } from './conformance/protocols.js';
import { ofType } from './support/harness.js';

const open: WireServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

function recorder() {
  const seen: string[] = [];
  const tool = defineTool({
    name: 'record',
    description: 'Records a text.',
    parameters: z.object({ text: z.string() }),
    readOnly: true,
    execute: async ({ text }) => (seen.push(text), `recorded ${text.length} chars`),
  });
  return { tool, seen };
}

interface Outcome {
  server: WireServer;
  result: RunResult;
  events: AgentEvent[];
}

async function runOver(
  protocol: ProtocolUnderTest,
  script: ServerStep[],
  { providerOptions, ...options }: Partial<AgentOptions> & { onEvent?: (event: AgentEvent) => void; providerOptions?: ProviderTestOptions } = {},
): Promise<Outcome> {
  const server = await protocol.start(script);
  open.push(server);
  const events: AgentEvent[] = [];
  const result = await run(
    { provider: protocol.provider(server.url, providerOptions), model: 'test-model', input: 'task', retry: { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 1000 }, ...options },
    (event) => {
      events.push(event);
      options.onEvent?.(event);
    },
  );
  return { server, result, events };
}

const tools = (...list: ReturnType<typeof recorder>['tool'][]) => new ToolRegistry(list);
/**
 * The stall scenarios' limits. The silence under test lasts until the limit; every healthy wait
 * around it (a request to its first frame, frame to frame) must stay far inside it at load 20 on
 * 2 cores, where 100-200 ms limits were tripped by a slow but healthy exchange. The first-byte
 * limit covers the request itself, so only the gaps between frames count against IDLE_MS.
 */
const IDLE_MS = 1_000;
const STALL_LIMITS = { idleTimeoutMs: IDLE_MS, firstByteTimeoutMs: 30_000 };
const roles = (messages: Message[]) => messages.map((m) => (m.role === 'tool' ? `tool:${(m as ToolMessage).toolCallId}` : m.role));

describe.each(PROTOCOLS)('provider conformance: $name', (protocol) => {
  it('stops at once, without retrying, when nothing listens on the local port, and says what to start', async () => {
    const server = await protocol.start([]);
    await server.close();
    const events: AgentEvent[] = [];
    const result = await run(
      { provider: protocol.provider(server.url), model: 'test-model', input: 'task', retry: { maxRetries: 4, baseDelayMs: 2_000, maxDelayMs: 2_000 } },
      (event) => events.push(event),
    );
    expect(ofType(events, 'retry')).toEqual([]);
    expect(result.stopReason).toBe('provider_error');
    expect(result.error).toMatch(/could not connect \(ECONNREFUSED\)\. Nothing is listening on 127\.0\.0\.1:\d+: start the server \(for Ollama: ollama serve\)/);
  });

  it('streams a plain answer in pieces and stops answered', async () => {
    const { server, result, events } = await runOver(protocol, [{ text: 'The answer is forty-two, plainly.' }], { system: 'Be brief.' });
    const deltas = ofType(events, 'text_delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((d) => d.text).join('')).toBe('The answer is forty-two, plainly.');
    expect(result).toMatchObject({ stopReason: 'answered', answer: 'The answer is forty-two, plainly.', turns: 1 });
    expect(server.violations).toEqual([]);
    expect(JSON.stringify(server.requests[0])).toContain('Be brief.');
  });

  it('round-trips a tool call: the call runs, the next request carries a valid history with its result', async () => {
    const { tool, seen } = recorder();
    const { server, result, events } = await runOver(protocol, [{ toolCalls: [{ name: 'record', arguments: { text: 'hello' } }] }, { text: 'done' }], { tools: tools(tool) });
    expect(seen).toEqual(['hello']);
    expect(result.answer).toBe('done');
    expect(server.violations).toEqual([]);
    expect(server.requests).toHaveLength(2);
    expect(JSON.stringify(server.requests[1])).toContain('recorded 5 chars');
    const call = (result.messages[1] as AssistantMessage).toolCalls[0]!;
    expect(ofType(events, 'tool_call_end')).toMatchObject([{ id: call.id, status: 'ok', isError: false }]);
    expect(roles(result.messages)).toEqual(['user', 'assistant', `tool:${call.id}`, 'assistant']);
  });

  it('shows the text of a reply that also calls tools, runs the call, and sends both back', async () => {
    const { tool, seen } = recorder();
    const { server, result, events } = await runOver(protocol, [{ text: 'Recording it now.', toolCalls: [{ name: 'record', arguments: { text: 'both' } }] }, { text: 'done' }], { tools: tools(tool) });
    expect(ofType(events, 'text_delta').map((d) => d.text).join('')).toBe('Recording it now.done');
    expect(seen).toEqual(['both']);
    expect((result.messages[1] as AssistantMessage).content).toBe('Recording it now.');
    expect(JSON.stringify(server.requests[1])).toContain('Recording it now.');
    expect(server.violations).toEqual([]);
  });

  it('answers a call to a tool that was not offered with an error naming the tools, in a valid history', async () => {
    const { tool, seen } = recorder();
    const { server, result, events } = await runOver(protocol, [{ toolCalls: [{ name: 'delete_everything', arguments: {} }] }, { text: 'sorry' }], { tools: tools(tool) });
    expect(seen).toEqual([]);
    expect(ofType(events, 'tool_call_end')).toMatchObject([{ name: 'delete_everything', isError: true, output: 'Unknown tool "delete_everything". Available tools: record.' }]);
    expect(JSON.stringify(server.requests[1])).toContain('Unknown tool');
    expect(result.answer).toBe('sorry');
    expect(server.violations).toEqual([]);
  });

  it('runs parallel calls of one reply and answers them all, in call order', async () => {
    const { tool, seen } = recorder();
    const { server, result } = await runOver(
      protocol,
      [{ toolCalls: [{ name: 'record', arguments: { text: 'one' } }, { name: 'record', arguments: { text: 'two' } }, { name: 'record', arguments: { text: 'three' } }] }, { text: 'all done' }],
      { tools: tools(tool) },
    );
    expect([...seen].sort()).toEqual(['one', 'three', 'two']);
    const ids = (result.messages[1] as AssistantMessage).toolCalls.map((c) => c.id);
    expect(new Set(ids).size).toBe(3);
    expect(roles(result.messages)).toEqual(['user', 'assistant', ...ids.map((id) => `tool:${id}`), 'assistant']);
    expect(server.violations).toEqual([]);
  });

  it('reassembles arguments sent in fragments, escapes and non-ASCII intact', async () => {
    const { tool, seen } = recorder();
    const text = 'line "one"\nline \\two\\ — ünïcödé ✓ '.repeat(4);
    const { server } = await runOver(protocol, [{ toolCalls: [{ name: 'record', arguments: { text } }] }, { text: 'ok' }], { tools: tools(tool) });
    expect(seen).toEqual([text]);
    expect(server.violations).toEqual([]);
  });

  it('streams reasoning, keeps it on the message and replays it with the tool result', async () => {
    const { tool } = recorder();
    const reasoning = 'I should record the greeting first.';
    const { server, result, events } = await runOver(protocol, [{ reasoning, toolCalls: [{ name: 'record', arguments: { text: 'hi' } }] }, { text: 'done' }], { tools: tools(tool) });
    expect(ofType(events, 'reasoning_delta').map((d) => d.text).join('')).toBe(reasoning);
    expect((result.messages[1] as AssistantMessage).reasoning).toBe(reasoning);
    expect(server.violations).toEqual([]);
    if (protocol.reasoningReplayed) expect(protocol.reasoningReplayed(server.requests[1], reasoning)).toBe(true);
    expect(result.answer).toBe('done');
  });

  it('normalises usage: total input including cached tokens, cached part, output', async () => {
    const { events, result } = await runOver(protocol, [{ text: 'ok', usage: { inputTokens: 1200, cachedInputTokens: 800, outputTokens: 30 } }]);
    expect(ofType(events, 'usage')[0]!.usage).toMatchObject({ inputTokens: 1200, cachedInputTokens: 800, outputTokens: 30 });
    expect(result.usage).toMatchObject({ inputTokens: 1200, cachedInputTokens: 800, outputTokens: 30 });
  });

  it('stops with provider_error and a clear message on 401, without retrying', async () => {
    const { server, result, events } = await runOver(protocol, [{ kind: 'http_error', status: 401 }]);
    expect(result.stopReason).toBe('provider_error');
    expect(result.error).toMatch(/401/);
    expect(result.error).toMatch(/key/i);
    expect(result.error).not.toContain('test-key');
    expect(ofType(events, 'retry')).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('waits as a 429 retry-after says, then succeeds', async () => {
    const { result, events } = await runOver(protocol, [{ kind: 'http_error', status: 429, headers: { 'retry-after': '0.02' } }, { text: 'after the wait' }]);
    expect(ofType(events, 'retry')).toMatchObject([{ attempt: 1, delayMs: 20 }]);
    expect(result.answer).toBe('after the wait');
  });

  it('does not retry a 429 whose retry-after is over the wait limit, and says why', async () => {
    const { server, result, events } = await runOver(protocol, [{ kind: 'http_error', status: 429, headers: { 'retry-after': '120' } }]);
    expect(ofType(events, 'retry')).toEqual([]);
    expect(result.stopReason).toBe('provider_error');
    expect(result.error).toMatch(/429.*\(not retried: the server asked to wait 120 s, more than the 1 s limit on retry waits\)$/);
    expect(server.requests).toHaveLength(1);
  });

  it('stops after the retry budget on repeated 5xx, with the last error and the number of retries', async () => {
    const { server, result, events } = await runOver(protocol, [{ kind: 'http_error', status: 500 }, { kind: 'http_error', status: 500 }, { kind: 'http_error', status: 500 }]);
    expect(ofType(events, 'retry').map((retry) => retry.attempt)).toEqual([1, 2]);
    expect(result.stopReason).toBe('provider_error');
    expect(result.error).toMatch(/HTTP 500.*\(gave up after 2 retries\)$/);
    // The SDK's own error under ours only repeats the status ("(500 …)"), so it is not appended.
    expect(result.error).not.toMatch(/\(500 /);
    expect(server.requests).toHaveLength(3);
  });

  it('retries a 5xx and succeeds', async () => {
    const { server, result, events } = await runOver(protocol, [{ kind: 'http_error', status: 503 }, { text: 'recovered' }]);
    expect(ofType(events, 'retry')).toHaveLength(1);
    expect(result.answer).toBe('recovered');
    expect(server.requests).toHaveLength(2);
  });

  it("reports the server's own error when it answers a streaming request with an error body and HTTP 200", async () => {
    const overloaded = { kind: 'http_error' as const, status: 200, message: 'The model is overloaded, try later.' };
    const { result, events } = await runOver(protocol, [overloaded, { text: 'second time lucky' }]);
    expect(ofType(events, 'retry')).toHaveLength(1);
    expect(ofType(events, 'retry')[0]!.error).toContain('The model is overloaded, try later.');
    expect(result.answer).toBe('second time lucky');
  });

  it('retries a stream cut mid-call and never runs the half-received call', async () => {
    const { tool, seen } = recorder();
    const call = { name: 'record', arguments: { text: 'a long argument that arrives in many small fragments' } };
    const { server, result, events } = await runOver(protocol, [{ kind: 'cut', reply: { toolCalls: [call] }, afterEvents: 5 }, { toolCalls: [call] }, { text: 'done' }], { tools: tools(tool) });
    expect(ofType(events, 'retry')).toHaveLength(1);
    expect(seen).toEqual([call.arguments.text]);
    expect(ofType(events, 'tool_call_start')).toHaveLength(1);
    expect(result.answer).toBe('done');
    expect(server.violations).toEqual([]);
  });

  it('does not run a call cut off by the output limit, and tells the model why', async () => {
    const { tool, seen } = recorder();
    const { server, result, events } = await runOver(
      protocol,
      [{ toolCalls: [{ name: 'record', arguments: '{"text":"unfinis' }], finishReason: 'length' }, { text: 'I will split it' }],
      { tools: tools(tool) },
    );
    expect(seen).toEqual([]);
    expect(ofType(events, 'assistant_message')[0]!.finishReason).toBe('length');
    expect(ofType(events, 'tool_call_end')[0]).toMatchObject({ isError: true, status: 'error' });
    expect(ofType(events, 'tool_call_end')[0]!.output).toMatch(/cut off/);
    expect(result.answer).toBe('I will split it');
    expect(server.violations).toEqual([]);
  });

  it('stops aborted when the signal fires mid-stream', async () => {
    const controller = new AbortController();
    const { result, events } = await runOver(protocol, [{ kind: 'slow', reply: { text: 'a slow answer that keeps coming in small pieces' }, delayMs: 15 }], {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'text_delta') controller.abort();
      },
    });
    expect(result.stopReason).toBe('aborted');
    expect(ofType(events, 'stop')).toHaveLength(1);
    expect(ofType(events, 'text_delta').map((d) => d.text).join('').length).toBeLessThan('a slow answer that keeps coming in small pieces'.length);
  });

  it('retries a stream with a frame that is not JSON, without writing to the console', async () => {
    const console_ = [vi.spyOn(console, 'error'), vi.spyOn(console, 'warn'), vi.spyOn(console, 'log')];
    try {
      const { result, events } = await runOver(protocol, [{ kind: 'garbled', reply: { text: 'half a reply' }, afterEvents: 2 }, { text: 'a clean reply' }]);
      expect(ofType(events, 'retry')).toHaveLength(1);
      expect(ofType(events, 'retry')[0]!.error).toMatch(/stream broke off/);
      expect(result.answer).toBe('a clean reply');
      // The terminal UI owns the screen: an SDK logging the bad frame would scribble over it.
      for (const spy of console_) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of console_) spy.mockRestore();
    }
  });

  it('gives up on a stream that stalls mid-call, retries, and never runs the half-received call', async () => {
    const { tool, seen } = recorder();
    const call = { name: 'record', arguments: { text: 'an argument that never finishes arriving the first time' } };
    // Gemini sends a call whole, in the chunk that finishes the reply, so its stream stalls before the call.
    const stall = protocol.name === 'google' ? { reply: { text: 'Recording.', toolCalls: [call] }, afterEvents: 1 } : { reply: { toolCalls: [call] }, afterEvents: 3 };
    const { server, result, events } = await runOver(protocol, [{ kind: 'stall', ...stall }, { toolCalls: [call] }, { text: 'done' }], {
      tools: tools(tool),
      providerOptions: STALL_LIMITS,
    });
    expect(ofType(events, 'retry')).toHaveLength(1);
    expect(ofType(events, 'retry')[0]!.error).toMatch(/stream stalled \(nothing received for 1 s\)/);
    expect(seen).toEqual([call.arguments.text]);
    expect(result.answer).toBe('done');
    expect(server.violations).toEqual([]);
  });

  it('keeps a whole reply when the server holds the connection open after it, without a retry', async () => {
    const { server, result, events } = await runOver(protocol, [{ kind: 'stall', reply: { text: 'complete, but the socket stays open' }, afterEvents: 1000 }], {
      providerOptions: STALL_LIMITS,
    });
    expect(result).toMatchObject({ stopReason: 'answered', answer: 'complete, but the socket stays open' });
    expect(ofType(events, 'retry')).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('gives up on a server that never answers, saying so and how many retries it made', async () => {
    // No first-byte limit: the idle limit runs from the request, which must reach the server well within it.
    // One retry, not two: each attempt waits out the whole limit.
    const { server, result, events } = await runOver(protocol, [{ kind: 'silent' }, { kind: 'silent' }], {
      providerOptions: { idleTimeoutMs: IDLE_MS },
      retry: { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 1000 },
    });
    expect(result.stopReason).toBe('provider_error');
    expect(result.error).toMatch(/sent nothing for 1 s; gave up waiting\. \(gave up after 1 retry\)$/);
    expect(ofType(events, 'retry').map((retry) => retry.attempt)).toEqual([1]);
    expect(server.requests).toHaveLength(2);
  });

  it('stops aborted at once when the signal fires while the server has not answered', async () => {
    const controller = new AbortController();
    const server = await protocol.start([{ kind: 'silent' }]);
    open.push(server);
    const running = run({ provider: protocol.provider(server.url), model: 'test-model', input: 'task', signal: controller.signal });
    await until(() => server.requests.length === 1);
    controller.abort();
    const result = await running;
    expect(result.stopReason).toBe('aborted');
    expect(server.requests).toHaveLength(1);
  });

  it('stops aborted at once when the signal fires during a retry wait', async () => {
    const controller = new AbortController();
    const { server, result, events } = await runOver(protocol, [{ kind: 'http_error', status: 429, headers: { 'retry-after': '0.9' } }, { text: 'too late' }], {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'retry') controller.abort();
      },
    });
    expect(ofType(events, 'retry')).toMatchObject([{ attempt: 1, delayMs: 900 }]);
    expect(result.stopReason).toBe('aborted');
    expect(server.requests).toHaveLength(1);
  });

  it('does not report a reply with only reasoning, no text and no calls, as an answer', async () => {
    const { result, events } = await runOver(protocol, [{ reasoning: 'Thinking it over, at length.' }]);
    expect(result.stopReason).toBe('provider_error');
    expect(result.answer).toBeNull();
    expect(result.error).toMatch(/empty reply, with no text and no tool calls \(it only reasoned\)/);
    expect(ofType(events, 'stop')).toMatchObject([{ reason: 'provider_error', answer: null }]);
    // Not kept: the next request (or a resumed session) would only have to drop it again.
    expect(roles(result.messages)).toEqual(['user']);
    expect(ofType(events, 'turn_end')).toMatchObject([{ messages: [] }]);
  });

  it('accepts a resumed history with a dangling call once it is repaired', async () => {
    const dangling: Message[] = [
      { role: 'user', content: 'earlier task' },
      { role: 'assistant', content: 'Let me record that.', toolCalls: [{ id: 'call_lost', name: 'record', arguments: '{"text":"x"}' }] },
    ];
    const { tool } = recorder();
    const { server, result, events } = await runOver(protocol, [{ text: 'picked up' }], { messages: dangling, tools: tools(tool) });
    expect(server.violations).toEqual([]);
    expect(ofType(events, 'history_repaired')[0]!.repairs).toEqual(['added a cancelled result for unanswered call call_lost (record)']);
    expect(result.answer).toBe('picked up');
  });
});

/** Resolves once `condition` holds, checking on each turn of the event loop (no fixed sleep). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
