import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { run } from '../src/core/loop.js';
import { OpenAIProvider } from '../src/providers/openai/openai-provider.js';
import { extractLeakedToolCalls, LeakedTextGuard } from '../src/providers/shared/leaked-tool-calls.js';
import { defineTool } from '../src/tools/define-tool.js';
import { calculatorTool } from '../src/tools/builtin/calculator.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { startChatServer } from './support/chat-server.js';
import { ofType, runScenario } from './support/harness.js';

const readFile = defineTool({
  name: 'read_file',
  description: 'Read a file.',
  parameters: z.object({ path: z.string(), limit: z.number().optional(), follow: z.boolean().optional() }),
  readOnly: true,
  execute: async ({ path, limit }) => `contents of ${path} (limit ${limit ?? 'none'})`,
});
const tools = new ToolRegistry([calculatorTool, readFile]).schemas();

describe('extractLeakedToolCalls', () => {
  it('reads Hermes/Qwen <tool_call> JSON and strips it from the text', () => {
    const text = 'Let me compute.\n<tool_call>\n{"name": "calculator", "arguments": {"expression": "17 * 23"}}\n</tool_call>';
    expect(extractLeakedToolCalls(text, tools)).toEqual({ calls: [{ name: 'calculator', arguments: '{"expression":"17 * 23"}' }], text: 'Let me compute.' });
  });

  it('reads arguments sent as a JSON string, and several blocks in order', () => {
    const text = '<tool_call>{"name": "calculator", "arguments": "{\\"expression\\": \\"1+1\\"}"}</tool_call>\n<tool_call>{"name": "read_file", "arguments": {"path": "a.txt"}}</tool_call>';
    expect(extractLeakedToolCalls(text, tools)?.calls).toEqual([
      { name: 'calculator', arguments: '{"expression":"1+1"}' },
      { name: 'read_file', arguments: '{"path":"a.txt"}' },
    ]);
  });

  it('reads <function=name>{…}</function>', () => {
    expect(extractLeakedToolCalls('ok <function=read_file>{"path": "b.txt"}</function>', tools)).toEqual({
      calls: [{ name: 'read_file', arguments: '{"path":"b.txt"}' }],
      text: 'ok',
    });
  });

  it('reads Qwen3-coder XML parameters, typing them by the tool schema', () => {
    const text = '<tool_call>\n<function=read_file>\n<parameter=path>\nsrc/a b.ts\n</parameter>\n<parameter=limit>\n20\n</parameter>\n<parameter=follow>true</parameter>\n</function>\n</tool_call>';
    expect(extractLeakedToolCalls(text, tools)).toEqual({ calls: [{ name: 'read_file', arguments: '{"path":"src/a b.ts","limit":20,"follow":true}' }], text: '' });
  });

  it('keeps a numeric-looking string parameter a string when the schema says string', () => {
    const text = '<tool_call><function=calculator><parameter=expression>42</parameter></function></tool_call>';
    expect(extractLeakedToolCalls(text, tools)?.calls).toEqual([{ name: 'calculator', arguments: '{"expression":"42"}' }]);
  });

  it('reads a block whose closing tag never came (the server stopped there)', () => {
    expect(extractLeakedToolCalls('<tool_call>\n{"name": "read_file", "arguments": {"path": "c"}}', tools)?.calls).toEqual([{ name: 'read_file', arguments: '{"path":"c"}' }]);
  });

  it('leaves unknown tools, unreadable blocks and replies without tools offered alone', () => {
    expect(extractLeakedToolCalls('<tool_call>{"name": "rm_rf", "arguments": {}}</tool_call>', tools)).toBeUndefined();
    expect(extractLeakedToolCalls('<tool_call>{"name": </tool_call>', tools)).toBeUndefined();
    expect(extractLeakedToolCalls('<tool_call>{"name": "calculator", "arguments": {"expression": "1"}}</tool_call>', [])).toBeUndefined();
    expect(extractLeakedToolCalls('plain answer', tools)).toBeUndefined();
    const mixed = extractLeakedToolCalls('<tool_call>{"name": "rm_rf"}</tool_call> <function=read_file>{"path": "d"}</function>', tools);
    expect(mixed).toEqual({ calls: [{ name: 'read_file', arguments: '{"path":"d"}' }], text: '<tool_call>{"name": "rm_rf"}</tool_call>' });
  });
});

describe('LeakedTextGuard', () => {
  it('shows text up to a marker split across deltas, and holds the rest', () => {
    const guard = new LeakedTextGuard();
    const shown = ['Let me ', 'check.<to', 'ol_call>{"na', 'me": 1}</tool_call>'].map((delta) => guard.push(delta));
    expect(shown).toEqual(['Let me ', 'check.', '', '']);
    expect(guard.rest()).toBe('<tool_call>{"name": 1}</tool_call>');
  });

  it('lets a false start through once it is clearly not a marker', () => {
    const guard = new LeakedTextGuard();
    expect([guard.push('a <fun'), guard.push('ny> b')]).toEqual(['a ', '<funny> b']);
  });
});

describe('leaked tool calls over the OpenAI-compatible wire', () => {
  const leaked = { text: 'Let me compute.\n<tool_call>\n{"name": "calculator", "arguments": {"expression": "17 * 23"}}\n</tool_call>' };

  it.each([true, false])('runs a call the server sent as plain content (stream: %s), without showing the markup', async (stream) => {
    const { server, result, events } = await runScenario([leaked, { text: '391' }], { toolList: [calculatorTool], stream });
    expect(result).toMatchObject({ answer: '391', turns: 2 });
    const first = ofType(events, 'assistant_message')[0]!;
    expect(first).toMatchObject({ leakedToolCalls: 1, finishReason: 'tool_calls', message: { content: 'Let me compute.', toolCalls: [{ name: 'calculator', arguments: '{"expression":"17 * 23"}' }] } });
    expect(ofType(events, 'tool_call_end')[0]).toMatchObject({ status: 'ok', output: '17 * 23 = 391' });
    expect(ofType(events, 'text_delta').filter((e) => e.turn === 1).map((e) => e.text).join('')).toBe(stream ? 'Let me compute.\n' : 'Let me compute.');
    // The next request carries it as a real call and its result.
    const [assistant, tool] = server.requests[1]!.messages.slice(-2);
    expect(assistant).toMatchObject({ role: 'assistant', content: 'Let me compute.', tool_calls: [{ function: { name: 'calculator', arguments: '{"expression":"17 * 23"}' } }] });
    expect(tool).toMatchObject({ role: 'tool', tool_call_id: assistant!.tool_calls![0]!.id, content: '17 * 23 = 391' });
  });

  it('is off with recoverLeakedToolCalls: false: the text is the answer', async () => {
    const server = await startChatServer([leaked]);
    try {
      const provider = new OpenAIProvider({ apiKey: 'k', baseURL: server.url, recoverLeakedToolCalls: false });
      const result = await run({ provider, model: 'm', input: 'x', tools: new ToolRegistry([calculatorTool]) });
      expect(result.answer).toBe(leaked.text);
    } finally {
      await server.close();
    }
  });

  it('never mines a reply cut off by the output limit', async () => {
    const { result } = await runScenario([{ ...leaked, finishReason: 'length' }], { toolList: [calculatorTool] });
    expect(result).toMatchObject({ stopReason: 'answered', answer: leaked.text });
  });
});
