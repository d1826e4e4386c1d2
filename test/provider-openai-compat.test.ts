import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../src/core/loop.js';
import type { Message } from '../src/contracts/messages.js';
import { OpenAIProvider } from '../src/providers/openai/openai-provider.js';
import { calculatorTool } from '../src/tools/builtin/calculator.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { startChatServer, type ChatRequestBody, type ChatServer, type ServerStep } from './support/chat-server.js';
import { ofType, runScenario } from './support/harness.js';

const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const calc = { toolCalls: [{ name: 'calculator', arguments: { expression: '17 * 23' } }] };
const rejects = (message: string, status = 400): ServerStep => ({ kind: 'http_error', status, body: { error: { message, type: 'invalid_request_error' } } });

describe('optional parameters an endpoint does not know', () => {
  it('a 400 naming stream_options: the request goes again without it, and later requests leave it out', async () => {
    const { server, result, events } = await runScenario([rejects('Unrecognized request argument supplied: stream_options'), calc, { text: '391' }], { toolList: [calculatorTool] });
    expect(result).toMatchObject({ stopReason: 'answered', answer: '391', turns: 2 });
    expect(server.requests.map((body) => 'stream_options' in body)).toEqual([true, false, false]);
    expect(server.requests[1]!.stream).toBe(true);
    expect(ofType(events, 'retry')).toEqual([]);
  });

  it('a 422 "extra inputs are not permitted" naming temperature (non-streaming) drops temperature', async () => {
    const { server, result } = await runScenario([rejects("body.temperature: Extra inputs are not permitted ('temperature')", 422), { text: 'ok' }], { stream: false });
    expect(result.answer).toBe('ok');
    expect(server.requests.map((body) => body.temperature)).toEqual([0, undefined]);
  });

  it('is remembered per provider instance only', async () => {
    const server = await startChatServer([rejects('Unsupported parameter: stream_options'), { text: 'a' }, { text: 'b' }]);
    servers.push(server);
    const first = new OpenAIProvider({ apiKey: 'k', baseURL: server.url });
    await run({ provider: first, model: 'm', input: 'x' });
    expect([...first.refusedParameters]).toEqual(['stream_options']);
    await run({ provider: new OpenAIProvider({ apiKey: 'k', baseURL: server.url }), model: 'm', input: 'y' });
    expect(server.requests.map((body) => 'stream_options' in body)).toEqual([true, false, true]);
  });

  it.each([
    ['an error that names no optional field', 'messages[1].content: invalid type'],
    ['a field we did not send', 'Unknown parameter: parallel_tool_calls'],
    ['a bad value, not an unknown field', 'temperature must be at most 2'],
  ])('stops with provider_error on %s, sending once', async (_label, message) => {
    const { server, result } = await runScenario([rejects(message)]);
    expect(result.stopReason).toBe('provider_error');
    expect(result.error).toContain(message);
    expect(server.requests).toHaveLength(1);
  });
});

/** The assistant messages of a request as the server received them. */
const assistants = (body: ChatRequestBody) => body.messages.filter((m) => m.role === 'assistant');

async function twoRuns(options: { replay: boolean; names: [string, string]; models: [string, string]; firstReply?: ServerStep; stream?: boolean }) {
  const server = await startChatServer([options.firstReply ?? { reasoning: 'I should use the calculator.', ...calc }, { text: '391' }, { text: 'again' }]);
  servers.push(server);
  const provider = (name: string) => new OpenAIProvider({ name, apiKey: 'k', baseURL: server.url, replayReasoning: options.replay, stream: options.stream ?? true });
  const tools = new ToolRegistry([calculatorTool]);
  const first = await run({ provider: provider(options.names[0]), model: options.models[0], input: 'What is 17 × 23?', tools });
  const messages: Message[] = first.messages;
  await run({ provider: provider(options.names[1]), model: options.models[1], input: 'And again?', tools, messages });
  expect(server.violations).toEqual([]);
  return { server, first };
}

describe('reasoning replay', () => {
  it('sends reasoning_content back to the same provider and model when the preset says so', async () => {
    const { server, first } = await twoRuns({ replay: true, names: ['deepseek', 'deepseek'], models: ['deepseek-chat', 'deepseek-chat'] });
    expect(first.messages[1]).toMatchObject({ providerData: { provider: 'deepseek', model: 'deepseek-chat', reasoning_content: 'I should use the calculator.' } });
    expect(assistants(server.requests[1]!)[0]!.reasoning_content).toBe('I should use the calculator.');
    expect(assistants(server.requests[2]!)[0]!.reasoning_content).toBe('I should use the calculator.');
  });

  it('does not send it when the preset does not ask for it', async () => {
    const { server } = await twoRuns({ replay: false, names: ['openai', 'openai'], models: ['m', 'm'] });
    for (const body of server.requests) for (const message of assistants(body)) expect(message).not.toHaveProperty('reasoning_content');
  });

  it('drops it when the model changes', async () => {
    const { server } = await twoRuns({ replay: true, names: ['deepseek', 'deepseek'], models: ['deepseek-reasoner', 'deepseek-chat'] });
    expect(assistants(server.requests[1]!)[0]!.reasoning_content).toBe('I should use the calculator.');
    for (const message of assistants(server.requests[2]!)) expect(message).not.toHaveProperty('reasoning_content');
  });

  it('drops it when the provider changes, even to one that replays too', async () => {
    const { server } = await twoRuns({ replay: true, names: ['deepseek', 'moonshot'], models: ['same-model', 'same-model'] });
    for (const message of assistants(server.requests[2]!)) expect(message).not.toHaveProperty('reasoning_content');
  });

  it('reads a `reasoning` field (OpenRouter, Ollama) and sends it back under that name', async () => {
    const chunk = (delta: unknown, finish: string | null = null) => ({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] });
    const firstReply: ServerStep = {
      kind: 'raw_chunks',
      chunks: [
        chunk({ role: 'assistant', reasoning: 'Use the ' }),
        chunk({ reasoning: 'calculator.' }),
        chunk({ tool_calls: [{ index: 0, id: 'call_r', type: 'function', function: { name: 'calculator', arguments: '{"expression":"17 * 23"}' } }] }),
        chunk({}, 'tool_calls'),
      ],
    };
    const { server, first } = await twoRuns({ replay: true, names: ['openrouter', 'openrouter'], models: ['m', 'm'], firstReply });
    expect(first.messages[1]).toMatchObject({ reasoning: 'Use the calculator.', providerData: { reasoning: 'Use the calculator.' } });
    const replayed = assistants(server.requests[1]!)[0]!;
    expect(replayed.reasoning).toBe('Use the calculator.');
    expect(replayed).not.toHaveProperty('reasoning_content');
  });

  it('replays reasoning from a non-streamed reply as well', async () => {
    const { server } = await twoRuns({ replay: true, names: ['zhipu', 'zhipu'], models: ['glm-4.6', 'glm-4.6'], stream: false });
    expect(assistants(server.requests[1]!)[0]!.reasoning_content).toBe('I should use the calculator.');
  });
});

describe('servers that break the streaming contract', () => {
  const chunk = (delta: unknown, finish: string | null = null) => ({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] });
  const callDelta = (index: number, id: string, text: string) => ({ tool_calls: [{ index, id, type: 'function', function: { name: 'calculator', arguments: JSON.stringify({ expression: text }) } }] });

  it('a whole completion sent as JSON to a streaming request is read as the reply, and its call runs', async () => {
    const completion = {
      id: 'c',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_w', type: 'function', function: { name: 'calculator', arguments: '{"expression":"2+3"}' } }] } }],
      usage: { prompt_tokens: 12, completion_tokens: 5 },
    };
    const { server, result, events } = await runScenario([{ kind: 'http_error', status: 200, body: completion }, { text: '5' }], { toolList: [calculatorTool] });
    expect(server.requests[0]!.stream).toBe(true);
    expect(ofType(events, 'tool_call_end')).toMatchObject([{ id: 'call_w', output: '2+3 = 5', isError: false }]);
    expect(ofType(events, 'usage')[0]!.usage).toMatchObject({ inputTokens: 12, outputTokens: 5 });
    expect(ofType(events, 'retry')).toEqual([]);
    expect(result).toMatchObject({ stopReason: 'answered', answer: '5' });
  });

  it('an event stream mislabelled application/json is still read as a stream', async () => {
    const frames = [chunk({ content: 'still ' }), chunk({ content: 'streamed' }), chunk({}, 'stop')].map((c) => `data: ${JSON.stringify(c)}\n\n`).join('');
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`${frames}data: [DONE]\n\n`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const result = await run({ provider: new OpenAIProvider({ apiKey: 'k', baseURL: `http://127.0.0.1:${port}/v1` }), model: 'm', input: 'x', retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 } });
      expect(result).toMatchObject({ stopReason: 'answered', answer: 'still streamed' });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('JSON that is neither a reply nor an error is reported with what the server sent', async () => {
    const odd = { kind: 'http_error' as const, status: 200, body: { status: 'queued', ticket: 42 } };
    const { result } = await runScenario([odd, odd, odd]);
    expect(result.stopReason).toBe('provider_error');
    expect(result.error).toContain('answered a streaming request with JSON that is neither a reply nor an error: {"status":"queued","ticket":42}');
  });

  it('usage repeated on every chunk (cumulative) is counted once, as the last report says', async () => {
    const withUsage = (delta: unknown, finish: string | null, completion: number) => ({ ...chunk(delta, finish), usage: { prompt_tokens: 40, completion_tokens: completion } });
    const { result, events } = await runScenario([{ kind: 'raw_chunks', chunks: [withUsage({ content: 'a' }, null, 1), withUsage({ content: 'b' }, null, 2), withUsage({}, 'stop', 3)] }]);
    expect(result.answer).toBe('ab');
    expect(ofType(events, 'usage')).toMatchObject([{ usage: { inputTokens: 40, outputTokens: 3 } }]);
    expect(result.usage).toMatchObject({ inputTokens: 40, outputTokens: 3 });
  });

  it('two calls of one reply with the same id get distinct ids, and each result names its own call', async () => {
    const twins: ServerStep = { kind: 'raw_chunks', chunks: [chunk(callDelta(0, 'call_0', '1+1')), chunk(callDelta(1, 'call_0', '2+2')), chunk({}, 'tool_calls')] };
    const { server, result } = await runScenario([twins, { text: '2 and 4' }], { toolList: [calculatorTool] });
    expect(result.answer).toBe('2 and 4');
    const sent = server.requests[1]!.messages;
    expect(sent.find((m) => m.role === 'assistant')!.tool_calls!.map((call) => call.id)).toEqual(['call_0', 'call_0_2']);
    expect(sent.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.content])).toEqual([
      ['call_0', '1+1 = 2'],
      ['call_0_2', '2+2 = 4'],
    ]);
  });
});
