import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../src/tools/define-tool.js';
import { courseTools, createCourseTools } from '../src/tools/builtin/course.js';
import { calculatorTool } from '../src/tools/builtin/calculator.js';
import { serveDemoPage, DEMO_PAGE } from '../src/cli/commands/demo/demo-page.js';
import { ofType, runScenario } from './support/harness.js';

function counterTool(name = 'probe', readOnly = true) {
  const calls: unknown[] = [];
  const tool = defineTool({
    name,
    description: 'test probe',
    parameters: z.object({ n: z.number().optional(), a: z.number().optional(), b: z.number().optional() }),
    readOnly,
    async execute(args) {
      calls.push(args);
      return `result ${calls.length}`;
    },
  });
  return { tool, calls };
}

describe('the loop', () => {
  it('ends on a reply without tool calls and returns its text as the answer', async () => {
    const { result, server } = await runScenario([{ text: 'Hello there.' }], { toolList: courseTools });
    expect(result.stopReason).toBe('answered');
    expect(result.answer).toBe('Hello there.');
    expect(result.turns).toBe(1);
    const body = server.requests[0]!;
    expect(body.temperature).toBe(0);
    expect(body.tools?.map((t) => t.function.name)).toEqual(['current_time', 'calculator', 'fetch_url']);
    expect(body.messages.map((m) => m.role)).toEqual(['user']);
  });

  it('does not stop on text that says "done" while the reply still calls tools', async () => {
    const { result, server } = await runScenario(
      [{ text: 'Done! Let me just check.', toolCalls: [{ name: 'calculator', arguments: { expression: '1+1' } }] }, { text: 'It is 2.' }],
      { toolList: [calculatorTool] },
    );
    expect(result.answer).toBe('It is 2.');
    expect(server.requests).toHaveLength(2);
  });

  it('appends the assistant message as received and one tool message per call, in call order', async () => {
    const rawArgs = '{"expression":  "17 * 23"}';
    const { result, server } = await runScenario(
      [
        {
          toolCalls: [
            { id: 'call_A', name: 'calculator', arguments: rawArgs },
            { id: 'call_B', name: 'current_time', arguments: '{}' },
          ],
        },
        { text: '391' },
      ],
      { toolList: courseTools, system: 'sys' },
    );
    const second = server.requests[1]!;
    expect(second.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool']);
    const assistant = second.messages[2]!;
    expect(assistant.content).toBe('');
    expect(assistant.tool_calls).toEqual([
      { id: 'call_A', type: 'function', function: { name: 'calculator', arguments: rawArgs } },
      { id: 'call_B', type: 'function', function: { name: 'current_time', arguments: '{}' } },
    ]);
    expect(second.messages[3]).toMatchObject({ role: 'tool', tool_call_id: 'call_A', content: '17 * 23 = 391' });
    expect(second.messages[4]).toMatchObject({ role: 'tool', tool_call_id: 'call_B' });
    expect(result.messages).toHaveLength(6);
  });

  it('keeps results in call order when concurrent read-only calls finish out of order', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = defineTool({ name: 'slow', description: 's', parameters: z.object({}), readOnly: true, execute: async () => (await gate, 'slow done') });
    const fast = defineTool({ name: 'fast', description: 'f', parameters: z.object({}), readOnly: true, execute: async () => (release(), 'fast done') });
    const { server, events } = await runScenario(
      [{ toolCalls: [{ id: 's1', name: 'slow', arguments: '{}' }, { id: 'f1', name: 'fast', arguments: '{}' }] }, { text: 'ok' }],
      { toolList: [slow, fast] },
    );
    expect(ofType(events, 'tool_call_end').map((e) => e.id)).toEqual(['f1', 's1']);
    expect(server.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['slow done', 'fast done']);
  });

  it('never runs a call whose arguments were cut off by the output limit, and asks for it again', async () => {
    const { tool, calls } = counterTool('write_thing', false);
    const { result, server } = await runScenario(
      [{ toolCalls: [{ id: 'cut', name: 'write_thing', arguments: '{"n": 12, "a": ' }], finishReason: 'length' }, { text: 'I will resend it.' }],
      { toolList: [tool] },
    );
    expect(calls).toHaveLength(0);
    const toolMessage = server.requests[1]!.messages.find((m) => m.role === 'tool')!;
    expect(String(toolMessage.content)).toMatch(/cut off.*not run.*Send it again/s);
    expect(server.requests[1]!.messages[1]!.tool_calls![0]!.function.arguments).toBe('{"n": 12, "a": ');
    expect(result.stopReason).toBe('answered');
  });
});

describe('brakes', () => {
  it('stops at the turn limit with a hand-off requested without tools, never as answered', async () => {
    const { tool } = counterTool();
    const loopStep = (n: number) => ({ toolCalls: [{ name: 'probe', arguments: { n } }] });
    const { result, server, events } = await runScenario([loopStep(1), loopStep(2), loopStep(3), { text: 'Done: 3 probes. Remaining: none.' }], {
      toolList: [tool],
      maxTurns: 3,
    });
    expect(result.stopReason).toBe('turn_limit');
    expect(result.answer).toBeNull();
    expect(result.handoff).toBe('Done: 3 probes. Remaining: none.');
    expect(result.turns).toBe(3);
    const last = server.requests[3]!;
    expect(last.tools).toBeUndefined();
    expect(String(last.messages.at(-1)!.content)).toMatch(/turn limit/);
    expect(events.at(-1)).toMatchObject({ type: 'stop', reason: 'turn_limit', answer: null, handoff: 'Done: 3 probes. Remaining: none.' });
  });

  it('can skip the hand-off', async () => {
    const { tool } = counterTool();
    const { result, server } = await runScenario([{ toolCalls: [{ name: 'probe', arguments: { n: 1 } }] }], { toolList: [tool], maxTurns: 1, handoff: false });
    expect(result.stopReason).toBe('turn_limit');
    expect(server.requests).toHaveLength(1);
  });

  it('turns a tool exception into error text the model can act on', async () => {
    const broken = defineTool({ name: 'read', description: 'r', parameters: z.object({ path: z.string() }), readOnly: true, execute: async ({ path }) => { throw new Error(`ENOENT: no such file ${path}`); } });
    const { server, events } = await runScenario(
      [{ toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }] }, { text: 'The file does not exist.' }],
      { toolList: [broken] },
    );
    expect(ofType(events, 'tool_call_end')[0]).toMatchObject({ status: 'error', isError: true });
    expect(server.requests[1]!.messages.at(-1)!.content).toBe('read failed: ENOENT: no such file a.txt');
  });

  it('times out a hanging tool and tells the model', async () => {
    let aborted = false;
    const hang = defineTool({
      name: 'hang', description: 'h', parameters: z.object({}), readOnly: true, timeoutMs: 50,
      execute: (_, { signal }) => new Promise((_, reject) => signal.addEventListener('abort', () => { aborted = true; reject(new Error('stopped')); })),
    });
    const { server } = await runScenario([{ toolCalls: [{ name: 'hang', arguments: {} }] }, { text: 'It hung.' }], { toolList: [hang] });
    expect(server.requests[1]!.messages.at(-1)!.content).toMatch(/timed out after 50 ms/);
    expect(aborted).toBe(true);
  });

  it('answers unknown tools, bad JSON and schema violations with errors that say what is valid', async () => {
    const { server } = await runScenario(
      [
        {
          toolCalls: [
            { id: 'u', name: 'teleport', arguments: '{}' },
            { id: 'j', name: 'calculator', arguments: '{"expression": 17*23}' },
            { id: 's', name: 'calculator', arguments: '{"expr": "1"}' },
          ],
        },
        { text: 'ok' },
      ],
      { toolList: courseTools },
    );
    const results = server.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    expect(results[0]).toMatch(/Unknown tool "teleport"\. Available tools: current_time, calculator, fetch_url/);
    expect(results[1]).toMatch(/not valid JSON/);
    expect(results[2]).toMatch(/Invalid arguments for calculator: expression: .*Expected schema/);
  });

  it('stops the run when the same call gets the same result three times in a row (canonical keys)', async () => {
    const same = defineTool({ name: 'look', description: 'l', parameters: z.object({ a: z.number(), b: z.number() }), readOnly: true, execute: async () => 'nothing new' });
    const { result, server } = await runScenario(
      [
        { toolCalls: [{ name: 'look', arguments: '{"a":1,"b":2}' }] },
        { toolCalls: [{ name: 'look', arguments: '{"b":2,"a":1}' }] },
        { toolCalls: [{ name: 'look', arguments: '{ "a": 1, "b": 2 }' }] },
      ],
      { toolList: [same] },
    );
    expect(result.stopReason).toBe('repeated_call');
    expect(result.answer).toBeNull();
    expect(result.error).toMatch(/look was called 3 times/);
    expect(server.requests).toHaveLength(3);
    // The history is still whole: the last call has its result.
    expect(result.messages.at(-1)).toMatchObject({ role: 'tool', content: 'nothing new' });
  });

  it('gives identical calls whose results keep changing (polling) a higher limit', async () => {
    const { tool } = counterTool('poll');
    const poll = { toolCalls: [{ name: 'poll', arguments: {} }] };
    const { result } = await runScenario([poll, poll, poll, poll, { text: 'build finished' }], { toolList: [tool] });
    expect(result.stopReason).toBe('answered');
    const { result: stuck } = await runScenario([poll, poll, poll, poll], { toolList: [counterTool('poll').tool], changingRepeatLimit: 4 });
    expect(stuck.stopReason).toBe('repeated_call');
  });
});

describe('the course tasks over HTTP', () => {
  it('answers all four: time, 17 × 23, page length ÷ 7, and admits not knowing the 2099 winner', async () => {
    const page = await serveDemoPage();
    try {
      const time = await runScenario([{ toolCalls: [{ name: 'current_time', arguments: {} }] }, (body) => ({ text: `It is ${String(body.messages.at(-1)!.content)}` })], { toolList: courseTools });
      expect(time.result.answer).toMatch(/^It is \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}/);
      expect(time.result.turns).toBe(2);

      const product = await runScenario([{ toolCalls: [{ name: 'calculator', arguments: { expression: '17 * 23' } }] }, (body) => ({ text: String(body.messages.at(-1)!.content) })], { toolList: courseTools });
      expect(product.result.answer).toBe('17 * 23 = 391');

      const fetched = await runScenario(
        [
          { toolCalls: [{ name: 'fetch_url', arguments: { url: page.url } }] },
          (body) => ({ toolCalls: [{ name: 'calculator', arguments: { expression: `${/length: (\d+)/.exec(String(body.messages.at(-1)!.content))![1]} / 7` } }] }),
          (body) => ({ text: String(body.messages.at(-1)!.content) }),
        ],
        { toolList: createCourseTools({ privateHosts: ['127.0.0.1'] }) },
      );
      expect(fetched.result.turns).toBe(3);
      expect(fetched.result.answer).toBe(`${DEMO_PAGE.length} / 7 = ${Number((DEMO_PAGE.length / 7).toPrecision(12))}`);

      const unknown = await runScenario([{ text: "I don't know; the 2099 World Cup has not been played." }], { toolList: courseTools });
      expect(unknown.result.stopReason).toBe('answered');
      expect(ofType(unknown.events, 'tool_call_start')).toHaveLength(0);
    } finally {
      await page.close();
    }
  });
});
