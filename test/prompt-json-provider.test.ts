import { afterEach, describe, expect, it } from 'vitest';
import { run, type AgentOptions } from '../src/core/loop.js';
import type { AgentEvent } from '../src/contracts/events.js';
import { OpenAIProvider } from '../src/providers/openai/openai-provider.js';
import { promptJsonProvider } from '../src/providers/prompt-json/prompt-json-provider.js';
import { toPromptJsonHistory } from '../src/providers/prompt-json/convert-history.js';
import { protocolPrompt, REPLY_CONTRACT } from '../src/providers/prompt-json/protocol-prompt.js';
import { calculatorTool } from '../src/tools/builtin/calculator.js';
import { currentTimeTool } from '../src/tools/builtin/current-time.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { startChatServer, type ChatServer, type ServerStep } from './support/chat-server.js';
import { ofType } from './support/harness.js';

const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function runPromptJson(script: ServerStep[], maxTurns = 6, inner: { name?: string; replayReasoning?: boolean } = {}, agent: Partial<AgentOptions> = {}) {
  const server = await startChatServer(script);
  servers.push(server);
  const provider = promptJsonProvider(new OpenAIProvider({ apiKey: 'test-key', baseURL: server.url, ...inner }));
  const events: AgentEvent[] = [];
  const result = await run(
    { provider, model: 'test-model', input: 'What is 17 × 23?', system: 'You are helpful.', tools: new ToolRegistry([calculatorTool, currentTimeTool]), maxTurns, ...agent },
    (event) => events.push(event),
  );
  expect(server.violations).toEqual([]);
  return { server, result, events };
}

const contentOf = (server: ChatServer, request: number) => server.requests[request]!.messages.map((m) => ({ role: m.role, content: m.content }));

describe('the prompt-JSON protocol over a real chat server', () => {
  it('sends no native tools, describes them in the system prompt, and turns the JSON reply into a call', async () => {
    const fenced = 'I will calculate.\n```json\n{"tool": "calculator", "arguments": {"expression": "17 * 23"}}\n```';
    const { server, result, events } = await runPromptJson([{ text: fenced }, { text: '{"answer": "17 × 23 = 391"}' }]);

    expect(result).toMatchObject({ answer: '17 × 23 = 391', stopReason: 'answered', turns: 2 });
    expect(result.protocolErrors).toBeUndefined();
    for (const request of server.requests) expect(request.tools).toBeUndefined();
    const system = String(server.requests[0]!.messages[0]!.content);
    expect(system.startsWith('You are helpful.\n\nYou can call tools.')).toBe(true);
    expect(system).toContain(REPLY_CONTRACT);
    expect(system).toMatch(/- calculator: .+ Arguments \(JSON Schema\): \{"type":"object"/);
    expect(system).not.toContain('$schema');
    // Byte-stable: the same tools give the same system prompt on every turn.
    expect(server.requests[1]!.messages[0]!.content).toBe(system);

    expect(contentOf(server, 1).slice(1)).toEqual([
      { role: 'user', content: 'What is 17 × 23?' },
      { role: 'assistant', content: fenced },
      { role: 'user', content: 'Result of calculator (call pj_1_0): 17 * 23 = 391' },
    ]);
    expect(server.requests[1]!.messages.some((m) => m.role === 'tool' || m.tool_calls)).toBe(false);

    expect(ofType(events, 'tool_call_start').map((e) => e.call)).toEqual([{ id: 'pj_1_0', name: 'calculator', arguments: '{"expression":"17 * 23"}' }]);
    // The JSON is never shown as text; the parsed answer is.
    expect(ofType(events, 'text_delta').map((e) => e.text)).toEqual(['17 × 23 = 391']);
  });

  it('a malformed reply is re-asked within the turn: a protocol_error event, a correction the model can act on, and a history without either', async () => {
    const good = '{"tool": "calculator", "arguments": {"expression": "17 * 23"}}';
    const { server, result, events } = await runPromptJson([
      { text: '{"tool": "calculator", "arguments": {"expression": "17 * 23"}', usage: { inputTokens: 100, outputTokens: 7 } },
      { text: good, usage: { inputTokens: 130, outputTokens: 9 } },
      { text: '{"answer": "391"}', usage: { inputTokens: 160, outputTokens: 5 } },
    ]);

    expect(result).toMatchObject({ answer: '391', stopReason: 'answered', turns: 2, protocolErrors: 1 });
    expect(ofType(events, 'protocol_error')).toEqual([{ type: 'protocol_error', turn: 1, reason: 'bad_json', error: expect.stringContaining('an object is not closed'), count: 1 }]);
    // The re-ask carries the unreadable reply and the correction...
    const [bad, correction] = contentOf(server, 1).slice(-2);
    expect(bad).toEqual({ role: 'assistant', content: '{"tool": "calculator", "arguments": {"expression": "17 * 23"}' });
    expect(correction!.role).toBe('user');
    expect(correction!.content).toMatch(/^Your reply was not valid JSON: an object is not closed .*Reply with exactly one JSON object/);
    // ...the next turn's request does not: the history holds only the reply that could be read.
    expect(contentOf(server, 2).slice(1)).toEqual([
      { role: 'user', content: 'What is 17 × 23?' },
      { role: 'assistant', content: good },
      { role: 'user', content: 'Result of calculator (call pj_1_0): 17 * 23 = 391' },
    ]);
    expect(ofType(events, 'tool_call_start').map((e) => e.call.id)).toEqual(['pj_1_0']);
    // Both requests of turn 1 are counted, in one usage event.
    expect(ofType(events, 'usage').map((e) => [e.turn, e.usage.inputTokens, e.usage.outputTokens])).toEqual([[1, 230, 16], [2, 160, 5]]);
    expect(result.usage).toMatchObject({ inputTokens: 390, outputTokens: 21 });
    // What a session rebuilds from turn_end events is exactly the history.
    expect(result.messages.slice(2)).toEqual(ofType(events, 'turn_end').flatMap((end) => end.messages));
  });

  it('stops as a repeated failure after four unreadable replies in a row, within one turn, with their usage counted and nothing added to the history', async () => {
    const broken = { text: '{"tool": "calculator", "arguments": {', usage: { inputTokens: 50, outputTokens: 4 } };
    const { server, result, events } = await runPromptJson([broken, broken, broken, broken], 8);
    expect(result).toMatchObject({ stopReason: 'repeated_call', turns: 1, protocolErrors: 4, answer: null });
    expect(result.error).toMatch(/^4 replies in a row could not be read as the protocol asks \(last: Your reply was not valid JSON/);
    expect(server.requests).toHaveLength(4);
    expect(ofType(events, 'protocol_error').map((e) => [e.turn, e.count])).toEqual([[1, 1], [1, 2], [1, 3], [1, 4]]);
    expect(result.usage).toMatchObject({ inputTokens: 200, outputTokens: 16 });
    expect(ofType(events, 'stop')[0]).toMatchObject({ reason: 'repeated_call', error: result.error });
    // No turn completed, so a session rebuilds what the run holds: the input and nothing after it.
    expect(ofType(events, 'turn_end')).toEqual([]);
    expect(result.messages.map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('takes its limit of unreadable replies from protocolErrorLimit', async () => {
    const broken = { text: 'no json here, just {' };
    const { server, result } = await runPromptJson([broken, broken], 8, {}, { protocolErrorLimit: 2 });
    expect(result).toMatchObject({ stopReason: 'repeated_call', protocolErrors: 2 });
    expect(result.error).toMatch(/^2 replies in a row could not be read/);
    expect(server.requests).toHaveLength(2);
  });

  it('estimates the usage of a re-asked request whose server reported none', async () => {
    const chunk = (delta: unknown, finish: string | null = null) => ({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] });
    const { events } = await runPromptJson([
      { kind: 'raw_chunks', chunks: [chunk({ content: '{"answer": ' }), chunk({}, 'stop')] },
      { text: '{"answer": "391"}', usage: { inputTokens: 100, outputTokens: 5 } },
    ]);
    const [usage] = ofType(events, 'usage');
    expect(usage!.usage.estimated).toBe(true);
    expect(usage!.usage.inputTokens).toBeGreaterThan(100);
    expect(usage!.usage.outputTokens).toBe(5 + Math.ceil('{"answer": '.length / 4));
  });

  it('a readable reply resets the count of unreadable ones', async () => {
    const broken = { text: '{"tool": "calculator", "arguments": {' };
    const call = { text: '{"tool": "calculator", "arguments": {"expression": "1 + 1"}}' };
    const { result } = await runPromptJson([broken, broken, broken, call, broken, broken, broken, { text: '{"answer": "2"}' }], 10);
    expect(result).toMatchObject({ stopReason: 'answered', answer: '2', protocolErrors: 6, turns: 2 });
  });

  it('prose gets one reminder; prose again right after it is taken as the answer', async () => {
    const { server, result, events } = await runPromptJson([{ text: 'It is 391.' }, { text: 'As I said, 391.' }]);
    expect(result).toMatchObject({ answer: 'As I said, 391.', stopReason: 'answered', turns: 1, protocolErrors: 1 });
    expect(ofType(events, 'protocol_error').map((e) => e.reason)).toEqual(['no_json']);
    expect(contentOf(server, 1).at(-1)!.content).toContain('Your reply contained no JSON object.');
  });

  it('an array of calls runs each, and their results come back in call order as one user message', async () => {
    const { server, result } = await runPromptJson([
      { text: '[{"tool": "calculator", "arguments": {"expression": "1 + 1"}}, {"tool": "nope", "arguments": {}}]' },
      { text: '{"answer": "2"}' },
    ]);
    expect(result.answer).toBe('2');
    const results = String(contentOf(server, 1).at(-1)!.content).split('\n\n');
    expect(results[0]).toBe('Result of calculator (call pj_1_0): 1 + 1 = 2');
    expect(results[1]).toMatch(/^Error from nope \(call pj_1_1\): Unknown tool "nope"/);
  });

  it('streams reasoning through, and the inner provider still replays it to the same model', async () => {
    const { server, events } = await runPromptJson(
      [{ reasoning: 'Use the calculator.', text: '{"tool": "calculator", "arguments": {"expression": "2 + 2"}}' }, { text: '{"answer": "4"}' }],
      6,
      { name: 'deepseek', replayReasoning: true },
    );
    expect(ofType(events, 'run_start')[0]!.provider).toBe('deepseek+prompt-json');
    expect(ofType(events, 'reasoning_delta').map((e) => e.text).join('')).toBe('Use the calculator.');
    expect(server.requests[1]!.messages[2]).toMatchObject({ role: 'assistant', content: '{"tool": "calculator", "arguments": {"expression": "2 + 2"}}', reasoning_content: 'Use the calculator.' });
  });

  it('the turn-limit hand-off goes without the tool contract and its prose is taken as it is', async () => {
    const { server, result } = await runPromptJson([{ text: '{"tool": "current_time"}' }, { text: 'Hand-off: I looked up the time.' }], 1);
    expect(result).toMatchObject({ stopReason: 'turn_limit', handoff: 'Hand-off: I looked up the time.' });
    expect(String(server.requests[1]!.messages[0]!.content)).toBe('You are helpful.');
  });
});

describe('toPromptJsonHistory', () => {
  it('renders a history from a native run in protocol form, and adds the contract as the system prompt', () => {
    const tools = new ToolRegistry([calculatorTool]).schemas();
    const history = toPromptJsonHistory(
      [
        { role: 'user', content: 'What is 17 × 23?' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'call_9', name: 'calculator', arguments: '{"expression":"17 * 23"}' }] },
        { role: 'tool', toolCallId: 'call_9', name: 'calculator', content: '17 * 23 = 391', isError: false },
        { role: 'assistant', content: '391', toolCalls: [] },
      ],
      tools,
    );
    expect(history).toEqual([
      { role: 'system', content: protocolPrompt(tools) },
      { role: 'user', content: 'What is 17 × 23?' },
      { role: 'assistant', content: '{"tool":"calculator","arguments":{"expression":"17 * 23"}}', toolCalls: [] },
      { role: 'user', content: 'Result of calculator (call call_9): 17 * 23 = 391' },
      { role: 'assistant', content: '{"answer":"391"}', toolCalls: [] },
    ]);
  });
});

describe('prompt-JSON call ids', () => {
  it('stay unique when a compaction has shortened the history (ids already in it are never reused)', async () => {
    const server = await startChatServer([{ text: '{"tool": "calculator", "arguments": {"expression": "3 + 3"}}' }, { text: '{"answer": "6"}' }]);
    servers.push(server);
    const provider = promptJsonProvider(new OpenAIProvider({ apiKey: 'test-key', baseURL: server.url }));
    const call = (id: string, expression: string) => ({ id, name: 'calculator', arguments: JSON.stringify({ expression }) });
    // What the context policy leaves after summarising turn 1: the summary, then turns 2 and 3 as they were.
    const messages = [
      { role: 'user' as const, content: '[Summary of earlier turns] Goal: arithmetic.' },
      { role: 'assistant' as const, content: '', toolCalls: [call('pj_2_0', '1 + 1')] },
      { role: 'tool' as const, toolCallId: 'pj_2_0', name: 'calculator', content: '1 + 1 = 2', isError: false },
      { role: 'assistant' as const, content: '', toolCalls: [call('pj_3_0', '2 + 2')] },
      { role: 'tool' as const, toolCallId: 'pj_3_0', name: 'calculator', content: '2 + 2 = 4', isError: false },
    ];
    const events: AgentEvent[] = [];
    await run({ provider, model: 'test-model', input: 'And 3 + 3?', messages, tools: new ToolRegistry([calculatorTool]) }, (event) => events.push(event));
    const id = ofType(events, 'tool_call_start')[0]!.call.id;
    expect(['pj_2_0', 'pj_3_0']).not.toContain(id);
    expect(id).toBe('pj_4_0');
  });
});
