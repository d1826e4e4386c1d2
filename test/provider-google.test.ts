import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../src/tools/define-tool.js';
import { calculatorTool } from '../src/tools/builtin/calculator.js';
import { ofType } from './support/harness.js';
import { runGeminiScenario } from './support/gemini-harness.js';
import { rpcError, startGeminiServer } from './support/gemini-server.js';
import { run } from '../src/core/loop.js';
import { GoogleProvider } from '../src/providers/google/google-provider.js';
import { ToolRegistry } from '../src/tools/registry.js';
import type { AgentEvent } from '../src/contracts/events.js';

function echoTools() {
  const seen: string[] = [];
  const make = (name: string) =>
    defineTool({ name, description: `${name} tool`, parameters: z.object({ v: z.string() }), readOnly: true, execute: async ({ v }) => (seen.push(`${name}:${v}`), `${name} says ${v}`) });
  return { tools: [make('echo'), make('other')], seen };
}

describe('Google Gemini provider over the wire', () => {
  it('answers a plain prompt: system instruction, user content, streamed text, usage', async () => {
    const { result, server, events } = await runGeminiScenario([{ text: 'Hello from Gemini.', usage: { inputTokens: 12, outputTokens: 5 } }], { system: 'Be brief.' });
    expect(result.stopReason).toBe('answered');
    expect(result.answer).toBe('Hello from Gemini.');
    expect(ofType(events, 'text_delta').length).toBeGreaterThan(1);
    const request = server.requests[0]!;
    expect(request.method).toBe('streamGenerateContent');
    expect(request.model).toBe('gemini-2.5-flash');
    expect(request.apiKey).toBe('test-gemini-key');
    expect(request.body.systemInstruction?.parts?.[0]?.text).toBe('Be brief.');
    expect(request.body.contents).toEqual([{ role: 'user', parts: [{ text: 'task' }] }]);
    expect(request.body.generationConfig?.temperature).toBe(0);
    expect(result.usage).toEqual({ inputTokens: 12, outputTokens: 5, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
  });

  it('runs calls sent whole in one chunk, without ids or index, under finishReason STOP, and answers with object responses', async () => {
    const { tools, seen } = echoTools();
    const { result, server, events } = await runGeminiScenario(
      [{ toolCalls: [{ name: 'echo', arguments: { v: 'one' } }, { name: 'other', arguments: { v: 'two' } }] }, { text: 'done' }],
      { toolList: tools },
    );
    expect(seen).toEqual(['echo:one', 'other:two']);
    expect(result.answer).toBe('done');
    const [message] = ofType(events, 'assistant_message');
    expect(message!.finishReason).toBe('tool_calls');
    const ids = message!.message.toolCalls.map((call) => call.id);
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) expect(id).toMatch(/^call_[a-zA-Z0-9]{8}_\d$/);
    // Our history keeps our ids; the wire gets name-matched object responses in call order.
    expect(result.messages.filter((m) => m.role === 'tool').map((m) => (m as { toolCallId: string }).toolCallId)).toEqual(ids);
    const second = server.requests[1]!.body.contents!;
    expect(second.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    expect(second[1]!.parts).toEqual([{ functionCall: { name: 'echo', args: { v: 'one' } } }, { functionCall: { name: 'other', args: { v: 'two' } } }]);
    expect(second[2]!.parts).toEqual([
      { functionResponse: { name: 'echo', response: { output: 'echo says one' } } },
      { functionResponse: { name: 'other', response: { output: 'other says two' } } },
    ]);
  });

  it('takes calls spread over chunks, one per chunk, with the finish in a chunk of its own', async () => {
    const { tools, seen } = echoTools();
    const part = (name: string, v: string) => ({ candidates: [{ content: { role: 'model', parts: [{ functionCall: { name, args: { v } } }] } }] });
    const { result } = await runGeminiScenario(
      [
        { kind: 'raw_chunks', chunks: [part('echo', 'a'), part('echo', 'b'), { candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 4 } }] },
        { text: 'ok' },
      ],
      { toolList: tools },
    );
    expect(seen).toEqual(['echo:a', 'echo:b']);
    expect(result.answer).toBe('ok');
  });

  it('keeps the id Gemini gives a call and answers with it', async () => {
    const { tools } = echoTools();
    const { server, result } = await runGeminiScenario([{ toolCalls: [{ id: 'gem-call-7', name: 'echo', arguments: { v: 'id' } }] }, { text: 'ok' }], { toolList: tools });
    expect(result.messages[1]).toMatchObject({ toolCalls: [{ id: 'gem-call-7' }] });
    expect(server.requests[1]!.body.contents![2]!.parts![0]!.functionResponse).toEqual({ id: 'gem-call-7', name: 'echo', response: { output: 'echo says id' } });
  });

  it('sends a failed call back as {error: text}', async () => {
    const { server } = await runGeminiScenario([{ toolCalls: [{ name: 'missing_tool', arguments: {} }] }, { text: 'ok' }]);
    const response = server.requests[1]!.body.contents![2]!.parts![0]!.functionResponse!;
    expect(response.name).toBe('missing_tool');
    expect(Object.keys(response.response as object)).toEqual(['error']);
    expect((response.response as { error: string }).error).toMatch(/missing_tool/);
  });

  it('keeps thoughts and thought signatures and sends them back on the parts they came with', async () => {
    const { tools } = echoTools();
    const { result, server, events } = await runGeminiScenario(
      [
        { reasoning: 'I should call echo first.', toolCalls: [{ name: 'echo', arguments: { v: 'x' } }], thoughtsTokens: 7, usage: { inputTokens: 20, outputTokens: 12 } },
        { reasoning: 'Now answer.', text: 'All done here.' },
      ],
      { toolList: tools, providerOptions: { includeThoughts: true } },
    );
    expect(ofType(events, 'reasoning_delta').map((e) => e.text).join('')).toBe('I should call echo first.Now answer.');
    expect(server.requests[0]!.body.generationConfig?.thinkingConfig).toEqual({ includeThoughts: true });
    const model = server.requests[1]!.body.contents![1]!;
    expect(model.parts).toEqual([
      { text: 'I should call echo first.', thought: true },
      { functionCall: { name: 'echo', args: { v: 'x' } }, thoughtSignature: 'sig_1' },
    ]);
    const usage = ofType(events, 'usage')[0]!.usage;
    // candidatesTokenCount (5) excludes thoughts (7): output is their sum, reasoning the thoughts.
    expect(usage).toEqual({ inputTokens: 20, outputTokens: 12, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 7 });
    expect(result.answer).toBe('All done here.');
  });

  it('echoes a signature that came on the answer text when the conversation continues, and drops it for another model', async () => {
    const server = await startGeminiServer([{ reasoning: 'hmm', text: 'First answer, signed.' }, { text: 'Second.' }, { text: 'Third.' }]);
    try {
      const provider = new GoogleProvider({ apiKey: 'k', baseURL: server.url });
      const first = await run({ provider, model: 'gemini-2.5-pro', input: 'one' });
      const second = await run({ provider, model: 'gemini-2.5-pro', input: 'two', messages: first.messages });
      expect(second.answer).toBe('Second.');
      expect(server.requests[1]!.body.contents![1]).toEqual({
        role: 'model',
        parts: [{ text: 'hmm', thought: true }, { text: 'First answer, signed.', thoughtSignature: 'sig_1' }],
      });
      // Another model gets the plain text: signatures are only valid for the model that made them.
      await run({ provider, model: 'gemini-2.5-flash', input: 'three', messages: first.messages });
      expect(server.requests[2]!.body.contents![1]).toEqual({ role: 'model', parts: [{ text: 'First answer, signed.' }] });
      expect(server.violations).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('cleans tool schemas of keywords Gemini rejects, and omits parameters for a tool without arguments', async () => {
    const node: z.ZodType = z.lazy(() => z.object({ label: z.string(), children: z.array(node).optional() }));
    const rich = defineTool({
      name: 'rich',
      description: 'many shapes',
      parameters: z.object({
        url: z.string().url().describe('where'),
        count: z.number().int().positive(),
        mode: z.enum(['fast', 'slow']),
        literal: z.literal('fixed'),
        either: z.union([z.string(), z.number()]),
        maybe: z.string().nullable(),
        tags: z.record(z.string(), z.string()).optional(),
        tree: node.optional(),
      }),
      readOnly: true,
      execute: async () => 'ok',
    });
    const bare = defineTool({ name: 'bare', description: 'no args', parameters: z.object({}), readOnly: true, execute: async () => 'ok' });
    const { server } = await runGeminiScenario([{ text: 'fine' }], { toolList: [rich, bare] });
    const declarations = server.requests[0]!.body.tools![0]!.functionDeclarations!;
    expect(declarations.map((d) => d.name)).toEqual(['rich', 'bare']);
    expect(declarations[1]!.parameters).toBeUndefined();
    const text = JSON.stringify(declarations[0]!.parameters);
    for (const keyword of ['$schema', 'additionalProperties', '$ref', 'definitions', 'exclusiveMinimum', 'const', 'oneOf', '"format":"uri"']) expect(text).not.toContain(keyword);
    const properties = declarations[0]!.parameters!.properties as Record<string, Record<string, unknown>>;
    expect(properties.mode!.enum).toEqual(['fast', 'slow']);
    expect(properties.literal!.enum).toEqual(['fixed']);
    expect(properties.maybe!.nullable).toBe(true);
    expect((properties.either!.anyOf as unknown[]).length).toBe(2);
  });

  it('gives Gemini a valid name for a tool whose name it would reject, and maps calls back to ours', async () => {
    const seen: string[] = [];
    const tool = defineTool({ name: '9lives', description: 'cat', parameters: z.object({ n: z.number() }), readOnly: true, execute: async ({ n }) => (seen.push(String(n)), 'meow') });
    const { server, result } = await runGeminiScenario(
      [(body) => ({ toolCalls: [{ name: body.tools![0]!.functionDeclarations![0]!.name, arguments: { n: 9 } }] }), { text: 'purr' }],
      { toolList: [tool] },
    );
    const wireName = server.requests[0]!.body.tools![0]!.functionDeclarations![0]!.name;
    expect(wireName).toMatch(/^_9lives_[a-zA-Z0-9]{6}$/);
    expect(seen).toEqual(['9']);
    expect(result.messages[1]).toMatchObject({ role: 'assistant', toolCalls: [{ name: '9lives' }] });
    expect(server.requests[1]!.body.contents![2]!.parts![0]!.functionResponse!.name).toBe(wireName);
  });

  it('reports MAX_TOKENS as length and SAFETY as content_filter', async () => {
    const long = await runGeminiScenario([{ text: 'cut sh', finishReason: 'length' }]);
    expect(ofType(long.events, 'assistant_message')[0]!.finishReason).toBe('length');
    const filtered = await runGeminiScenario([{ kind: 'raw_chunks', chunks: [{ candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'SAFETY' }] }] }]);
    expect(ofType(filtered.events, 'assistant_message')[0]!.finishReason).toBe('content_filter');
  });

  it('works without streaming (generateContent)', async () => {
    const { tools, seen } = echoTools();
    const { server, result } = await runGeminiScenario([{ toolCalls: [{ name: 'echo', arguments: { v: 'plain' } }] }, { text: 'plain answer' }], {
      toolList: tools,
      providerOptions: { stream: false },
    });
    expect(server.requests.map((r) => r.method)).toEqual(['generateContent', 'generateContent']);
    expect(seen).toEqual(['echo:plain']);
    expect(result.answer).toBe('plain answer');
  });
});

describe('the google conformance protocol', () => {
  it('replays neutral steps (a call, an HTTP error, a cut) through its own server and provider', async () => {
    const { google } = await import('./conformance/google.js');
    const server = await google.start([
      { toolCalls: [{ name: 'calculator', arguments: { expression: '2+3' } }] },
      { kind: 'http_error', status: 500, body: rpcError(500, 'INTERNAL', 'An internal error has occurred.') },
      { kind: 'cut', reply: { text: 'half a reply' }, afterEvents: 1 },
      { text: 'five' },
    ]);
    try {
      const events: AgentEvent[] = [];
      const result = await run(
        { provider: google.provider(server.url), model: 'gemini-2.5-flash', input: 'add', tools: new ToolRegistry([calculatorTool]), retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 10 } },
        (event) => events.push(event),
      );
      expect(result.answer).toBe('five');
      expect(ofType(events, 'retry').length).toBe(2);
      expect(ofType(events, 'tool_call_end')[0]!.output).toBe('2+3 = 5');
      expect(server.requests.length).toBe(4);
      expect(server.violations).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
