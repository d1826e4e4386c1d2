import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../src/tools/define-tool.js';
import { OpenAIProvider } from '../src/providers/openai/openai-provider.js';
import { run } from '../src/core/loop.js';
import { ToolRegistry } from '../src/tools/registry.js';
import type { Message } from '../src/contracts/messages.js';
import { GEMINI_NAME, sanitiseToolName, ToolWireMap, wireToolId } from '../src/providers/shared/tool-ids.js';
import { startChatServer } from './support/chat-server.js';

describe('tool-call ids on the wire', () => {
  it('echoes ids byte-for-byte by default, whatever they look like', () => {
    const map = new ToolWireMap();
    for (const id of ['call_abc', 'toolu_01A09q90qw90lq917835lq9', 'x', 'ünïcödé id with spaces']) expect(map.id(id)).toBe(id);
  });

  it('keeps an id that fits Mistral\'s 9 alphanumerics and hashes one that does not, stably', () => {
    expect(wireToolId('Ab3dE6gH9', 'alnum9')).toBe('Ab3dE6gH9');
    const a = wireToolId('call_1_0', 'alnum9');
    expect(a).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(wireToolId('call_1_0', 'alnum9')).toBe(a);
    expect(wireToolId('call_1_1', 'alnum9')).not.toBe(a);
  });

  it('keeps ids of up to 40 characters for OpenAI and shortens longer ones', () => {
    const short = 'call_' + 'x'.repeat(35);
    expect(wireToolId(short, 'max40')).toBe(short);
    const long = wireToolId('y'.repeat(64), 'max40');
    expect(long.length).toBeLessThanOrEqual(40);
    expect(long).toMatch(/^call_/);
  });

  it('maps a remapped id back to ours, and keeps a new id from the model as it came', () => {
    const map = new ToolWireMap({ idFormat: 'alnum9' });
    const wire = map.id('toolu_0123456789');
    expect(map.idFromWire(wire)).toBe('toolu_0123456789');
    expect(map.idFromWire('Zz9Zz9Zz9')).toBe('Zz9Zz9Zz9');
  });
});

describe('tool names on the wire', () => {
  it('leaves valid names alone and makes invalid ones valid, distinct and reversible', () => {
    expect(sanitiseToolName('read_file')).toBe('read_file');
    const names = ['9lives', 'mcp:server/tool', 'a b', 'x'.repeat(80), 'mcp_server_tool'];
    const wire = names.map((name) => sanitiseToolName(name));
    for (const name of wire) expect(name).toMatch(GEMINI_NAME);
    expect(new Set(wire).size).toBe(names.length);
    const map = new ToolWireMap({ namePattern: GEMINI_NAME });
    for (const name of names) expect(map.nameFromWire(map.name(name))).toBe(name);
    expect(map.nameFromWire('never_sent')).toBe('never_sent');
  });
});

describe('the mistral id format through the OpenAI adapter', () => {
  it('sends 9-character ids for a history from another provider, and the history keeps the originals', async () => {
    const server = await startChatServer([{ text: 'continued' }]);
    try {
      const provider = new OpenAIProvider({ name: 'mistral', apiKey: 'k', baseURL: server.url, idFormat: 'alnum9' });
      const history: Message[] = [
        { role: 'user', content: 'add' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'toolu_01XyZ', name: 'calculator', arguments: '{"expression":"1+1"}' }] },
        { role: 'tool', toolCallId: 'toolu_01XyZ', name: 'calculator', content: '2', isError: false },
      ];
      const calculator = defineTool({ name: 'calculator', description: 'c', parameters: z.object({ expression: z.string() }), readOnly: true, execute: async () => '2' });
      const result = await run({ provider, model: 'mistral-small-latest', input: 'go on', messages: history, tools: new ToolRegistry([calculator]) });
      expect(server.violations).toEqual([]);
      const sent = server.requests[0]!.messages;
      const wireId = sent[1]!.tool_calls![0]!.id;
      expect(wireId).toMatch(/^[a-zA-Z0-9]{9}$/);
      expect(sent[2]!.tool_call_id).toBe(wireId);
      expect(result.messages[1]).toMatchObject({ toolCalls: [{ id: 'toolu_01XyZ' }] });
    } finally {
      await server.close();
    }
  });
});
