import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseJson, valueNesting } from '../src/contracts/bounded-json.js';
import { canonicalJson, jsonText } from '../src/contracts/canonical-json.js';
import { callKey } from '../src/core/repeat-detector.js';
import { summarizeArguments } from '../src/cli/display/summarize.js';
import { toolInput } from '../src/providers/anthropic/convert.js';
import { defineTool } from '../src/tools/define-tool.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { startChatServer } from './support/chat-server.js';
import { CLI_SESSION_TIMEOUT_MS, cliHome } from './support/cli-process.js';
import { ofType, runScenario } from './support/harness.js';

/** JSON text with `depth` containers around a leaf, arrays and objects mixed by `shape`. */
function nested(depth: number, shape: 'array' | 'object' | 'mixed'): string {
  const opens: string[] = [];
  const closes: string[] = [];
  for (let i = 0; i < depth; i++) {
    const asObject = shape === 'object' || (shape === 'mixed' && i % 2 === 1);
    opens.push(asObject ? '{"k":' : '[');
    closes.push(asObject ? '}' : ']');
  }
  return `${opens.join('')}1${closes.reverse().join('')}`;
}

const echo = defineTool({
  name: 'echo',
  description: 'Echoes its value.',
  parameters: z.object({ value: z.unknown() }),
  readOnly: true,
  async execute({ value }) {
    return jsonText(value).slice(0, 40);
  },
});

describe('arguments nested deeper than any walk can go', () => {
  it.each(['array', 'object', 'mixed'] as const)('a call nested 5,000 deep (%s) becomes a tool error the model reads, and the run goes on', async (shape) => {
    const deep = `{"value":${nested(5000, shape)}}`;
    const call = { name: 'echo', arguments: deep };
    const { result, events, server } = await runScenario(
      [{ toolCalls: [{ id: 'd1', ...call }] }, { toolCalls: [{ id: 'd2', ...call }] }, { text: 'I will send flatter arguments.' }],
      { toolList: [echo] },
    );
    expect(result.stopReason).toBe('answered');
    const ends = ofType(events, 'tool_call_end');
    expect(ends.map((end) => end.status)).toEqual(['error', 'error']);
    const toolMessage = server.requests[1]!.messages.find((m) => m.role === 'tool')!;
    expect(String(toolMessage.content)).toMatch(/nested 5001 levels deep; at most 100/);
  });

  it('leaves arguments within the limit alone', async () => {
    const registry = new ToolRegistry([echo]);
    const result = await registry.invoke({ id: 'c', name: 'echo', arguments: `{"value":${nested(99, 'mixed')}}` });
    expect(result.status).toBe('ok');
  });

  it('every place that reads arguments copes with any depth', () => {
    const deep = nested(50_000, 'mixed');
    expect(parseJson(deep)).toMatchObject({ ok: false });
    expect(toolInput(`{"a":${deep}}`)).toEqual({});
    expect(summarizeArguments(`{"a":${deep}}`)).toMatch(/^\{"a":\[\{/);
    expect(callKey({ id: 'x', name: 'echo', arguments: `{"a":${deep}}` })).toMatch(/^echo:\{"a"/);
    const value = JSON.parse(deep) as unknown;
    expect(jsonText(value)).toBe(deep);
    expect(canonicalJson(value)).toBe(deep);
  });

  it('property: arguments at any depth never throw out of registry.invoke', async () => {
    const registry = new ToolRegistry([echo]);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 20_000 }), fc.constantFrom('array', 'object', 'mixed'), async (depth, shape) => {
        const result = await registry.invoke({ id: 'p', name: 'echo', arguments: `{"value":${nested(depth, shape as 'array')}}` });
        expect(result.status).toBe(depth < 100 ? 'ok' : 'error');
      }),
      { numRuns: 60 },
    );
  });

  it('property: jsonText writes what JSON.stringify writes, and canonicalJson ignores key order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(jsonText(value)).toBe(JSON.stringify(value));
        const reordered = JSON.parse(JSON.stringify(value), (_key, item: unknown) =>
          item && typeof item === 'object' && !Array.isArray(item) ? Object.fromEntries(Object.entries(item).reverse()) : item,
        ) as unknown;
        expect(canonicalJson(reordered)).toBe(canonicalJson(value));
      }),
    );
  });
});

describe('MCP tool schemas nested deeper than any walk can go', () => {
  const SERVER = join(import.meta.dirname, 'support', 'mcp-deep-schema-server.mjs');

  it.each([20_000, 65])('a schema whose properties nest %i deep is not offered, with a warning naming the tool; the server\'s other tools work and the run answers', async (depth) => {
    const chat = await startChatServer([{ toolCalls: [{ name: 'mcp__deep__flat', arguments: { who: 'you' } }] }, { text: 'It said hello.' }]);
    const home = cliHome();
    try {
      mkdirSync(join(home.env.XDG_CONFIG_HOME, 'vibe-agent'), { recursive: true });
      writeFileSync(join(home.env.XDG_CONFIG_HOME, 'vibe-agent', 'config.json'), JSON.stringify({ mcpServers: { deep: { command: process.execPath, args: [SERVER, String(depth)] } } }));
      const ran = await home.run(['say hello', '--no-session', '--yes', '--tools', 'read_file'], { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: chat.url, VIBE_MODEL: 'test-model', VIBE_MCP_WAIT: '60' });
      expect(ran.stderr).toContain('MCP tool "deep" of "deep" not offered: its input schema is nested deeper than 64 levels.');
      expect(ran.stdout.trim()).toBe('It said hello.');
      expect(ran.code).toBe(0);
      expect(chat.requests[0]!.tools!.map((tool) => tool.function.name)).toEqual(['read_file', 'read_output', 'mcp__deep__flat']);
      expect(chat.requests[1]!.messages.find((message) => message.role === 'tool')?.content).toBe('hello you');
    } finally {
      await chat.close();
      home.cleanup();
    }
  }, CLI_SESSION_TIMEOUT_MS);

  it('property: valueNesting counts any depth without recursion, and stops at its limit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), fc.constantFrom('array', 'object', 'mixed'), (depth, shape) => {
        const value = JSON.parse(nested(depth, shape as 'array')) as unknown;
        expect(valueNesting(value)).toBe(depth);
        expect(valueNesting(value, 64)).toBe(Math.min(depth, 65));
      }),
      { numRuns: 60 },
    );
  });
});
