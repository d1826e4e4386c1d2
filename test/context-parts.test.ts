import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { run } from '../src/core/loop.js';
import { createContextPolicy } from '../src/context/policy.js';
import { defineTool } from '../src/tools/define-tool.js';
import type { Message, ToolMessage } from '../src/contracts/messages.js';
import { compactHistory } from '../src/context/compact-history.js';
import { contextWindowFor, knownWindow, LOCAL_DEFAULT_WINDOW, UNKNOWN_MODEL_WINDOW } from '../src/context/model-windows.js';
import { DirectoryOutputStore, MemoryOutputStore, outputIdFor } from '../src/tools/output-store.js';
import { shrinkToolOutputs } from '../src/context/shrink-outputs.js';
import { isStub } from '../src/context/stub-outputs.js';
import { SUMMARY_INSTRUCTIONS } from '../src/context/summary-prompt.js';
import { TokenCounter, tokenUpperBound } from '../src/context/token-count.js';
import { capNoteOf, capToolResult } from '../src/context/tool-result-cap.js';
import { ScriptedProvider } from '../src/providers/scripted.js';
import { createReadOutputTool } from '../src/context/read-output.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { parseCliArgs } from '../src/cli/parse-command-line.js';
import { configSchema } from '../src/cli/settings/config-schema.js';
import { bigOutput } from './support/context-session.js';

const temps: string[] = [];
afterEach(async () => {
  await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

function tool(id: string, content: string): ToolMessage {
  return { role: 'tool', toolCallId: id, name: 'read_file', content, isError: false };
}

/** system, user, then `turns` of assistant(call) + tool(20 KB). */
function history(turns: number): Message[] {
  const messages: Message[] = [
    { role: 'system', content: 'system prompt' },
    { role: 'user', content: 'the request' },
  ];
  for (let i = 1; i <= turns; i++) {
    messages.push({ role: 'assistant', content: `step ${i}`, toolCalls: [{ id: `c${i}`, name: 'read_file', arguments: `{"n":${i}}` }] });
    messages.push(tool(`c${i}`, bigOutput(i, 20_480)));
  }
  return messages;
}

describe('capping a tool result', () => {
  it('keeps head and tail, names the stored id, and leaves a capped result alone', () => {
    const full = bigOutput(1, 20_480);
    const { message, stored } = capToolResult(tool('c1', full), 4_000);
    expect(stored).toEqual({ id: outputIdFor(full), text: full });
    expect(message.content.startsWith(full.slice(0, 2_400))).toBe(true);
    expect(message.content.endsWith(full.slice(-1_600))).toBe(true);
    expect(message.content).toMatch(/\[… 16,480 chars \(\d+ lines\) omitted of 20,480; full output saved as output id out_[0-9a-f]{12}; call read_output to see more\]/);
    expect(capNoteOf(message.content)).toEqual({ id: stored!.id, chars: 20_480 });
    expect(capToolResult(message, 4_000)).toEqual({ message, shortened: true });
    expect(capToolResult(tool('c2', 'short'), 4_000)).toEqual({ message: tool('c2', 'short'), shortened: false });
    // A smaller cap later cuts further around the same id: the stored text stays the whole one.
    const again = capToolResult(message, 1_000);
    expect(again).toMatchObject({ shortened: true });
    expect(again.stored).toBeUndefined();
    expect(again.message.content.length).toBeLessThan(1_200);
    expect(capNoteOf(again.message.content)).toEqual({ id: stored!.id, chars: 20_480 });
  });
});

describe('stubbing older outputs', () => {
  const settings = { maxToolResultChars: 6_000, keepToolOutputTokens: 5_000 };

  it('is deterministic: the same history (or a copy rebuilt from JSON, or its own output) gives the same bytes', async () => {
    const original = history(12);
    const first = await shrinkToolOutputs(original, settings);
    const again = await shrinkToolOutputs(JSON.parse(JSON.stringify(original)) as Message[], settings);
    const reapplied = await shrinkToolOutputs(first.messages, settings);
    expect(JSON.stringify(again.messages)).toBe(JSON.stringify(first.messages));
    expect(JSON.stringify(reapplied.messages)).toBe(JSON.stringify(first.messages));
    expect(first.messages).toHaveLength(original.length);
    expect(first.messages.map((m) => m.role)).toEqual(original.map((m) => m.role));
  });

  it('keeps the newest outputs whole within the budget and stubs every older one, pointing at the stored output', async () => {
    const { messages, stored } = await shrinkToolOutputs(history(12), settings);
    const tools = messages.filter((m): m is ToolMessage => m.role === 'tool');
    const stubs = tools.filter((m) => isStub(m.content));
    expect(stubs.length).toBeGreaterThan(0);
    expect(isStub(tools.at(-1)!.content)).toBe(false);
    // Stubs are a prefix: once one is stubbed, all older ones are.
    expect(tools.map((m) => isStub(m.content))).toEqual(tools.map((_, i) => i < stubs.length));
    expect(stubs[0]!.content).toBe(`[output of read_file elided: 20,480 chars; read_output id ${outputIdFor(bigOutput(1, 20_480))}]`);
    const counter = await TokenCounter.create();
    const whole = tools.filter((m) => !isStub(m.content)).reduce((sum, m) => sum + counter.message(m), 0);
    expect(whole).toBeLessThanOrEqual(settings.keepToolOutputTokens);
    const ids = new Set(stored.map((s) => s.id));
    for (const stub of stubs) expect(ids.has(/out_[0-9a-f]{12}/.exec(stub.content)![0])).toBe(true);
  });
});

describe('read_output', () => {
  it('returns slices of a stored output and explains bad ids and offsets', async () => {
    const store = new MemoryOutputStore();
    const text = bigOutput(7, 20_480);
    const id = outputIdFor(text);
    await store.put(id, text);
    const registry = new ToolRegistry([createReadOutputTool(store, { maxLimit: 5_000 })]);
    const call = (args: unknown) => registry.invoke({ id: 'x', name: 'read_output', arguments: JSON.stringify(args) });

    const first = await call({ id });
    expect(first.isError).toBe(false);
    expect(first.content).toBe(`[output ${id}: characters 0–5000 of 20480; more from offset 5000]\n${text.slice(0, 5_000)}`);
    const last = await call({ id, offset: 20_000, limit: 1_000 });
    expect(last.content).toBe(`[output ${id}: characters 20000–20480 of 20480; end of output]\n${text.slice(20_000)}`);
    expect((await call({ id, offset: 30_000 })).content).toContain('past the end');
    const missing = await call({ id: 'out_000000000000' });
    expect(missing).toMatchObject({ isError: true });
    expect(missing.content).toContain('No stored output has the id out_000000000000');
    expect((await call({ id: '../../etc/passwd' })).content).toContain('an output id looks like out_');
  });

  it('reads back from a directory store, which refuses ids that are not output ids', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vibe-outputs-'));
    temps.push(dir);
    const store = new DirectoryOutputStore(join(dir, 'outputs'));
    const id = outputIdFor('hello');
    await store.put(id, 'hello');
    expect(await store.get(id)).toBe('hello');
    expect(await new DirectoryOutputStore(join(dir, 'outputs')).get(id)).toBe('hello');
    expect(await store.get('out_ffffffffffff')).toBeUndefined();
    expect(await readdir(join(dir, 'outputs'))).toEqual([`${id}.txt`]);
    await expect(store.get('../secret')).rejects.toThrow('is not an output id');
  });
});

describe('model windows and token counts', () => {
  it('matches the longest prefix, ignores a vendor prefix, and lets an override win', () => {
    expect(knownWindow('gpt-4o-mini')).toBe(128_000);
    expect(knownWindow('gpt-4.1-nano')).toBe(1_047_576);
    expect(knownWindow('openai/gpt-5-mini')).toBe(400_000);
    expect(knownWindow('claude-sonnet-4-5')).toBe(200_000);
    expect(knownWindow('kimi-k2-0905-preview')).toBe(262_144);
    expect(knownWindow('o4-mini')).toBe(200_000);
    expect(contextWindowFor({ model: 'no-such-model' })).toBe(UNKNOWN_MODEL_WINDOW);
    expect(contextWindowFor({ model: 'qwen2.5-coder:7b', provider: 'ollama' })).toBe(LOCAL_DEFAULT_WINDOW);
    expect(contextWindowFor({ model: 'gpt-4o', override: 50_000 })).toBe(50_000);
    expect(() => contextWindowFor({ model: 'gpt-4o', override: 10 })).toThrow('at least 1024');
  });

  it('never counts more tokens than the byte bound says, for text of any script', async () => {
    const counter = await TokenCounter.create();
    const messages: Message[] = [
      { role: 'user', content: '部署密钥的名字是 ORCHID-7。🙂 ' + bigOutput(3, 2_000) },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"ü/ñ.ts"}' }] },
      tool('c1', '<|endoftext|> special tokens are text here'),
    ];
    const exact = counter.messages(messages);
    expect(exact).toBeGreaterThan(500);
    expect(tokenUpperBound(messages)).toBeGreaterThanOrEqual(exact);
  });

  it('takes --context-window and contextWindow in the config, and rejects bad values', () => {
    expect(parseCliArgs(['--context-window', '65536', 'hi']).contextWindow).toBe(65_536);
    expect(() => parseCliArgs(['--context-window', 'lots', 'hi'])).toThrow('--context-window must be a whole number');
    expect(() => parseCliArgs(['--context-window', '100', 'hi'])).toThrow('at least 1024');
    expect(configSchema().parse({ contextWindow: 200_000 })).toEqual({ contextWindow: 200_000 });
    expect(configSchema().safeParse({ contextWindow: 12.5 }).success).toBe(false);
  });
});

describe('compactHistory (the library call behind /compact)', () => {
  it('summarises older turns through the provider without tools, keeps system, request and newest turn, and never splits a call from its result', async () => {
    const provider = new ScriptedProvider([(request) => ({ text: `SUMMARY of ${request.messages[1]!.content.length} chars` })]);
    const before = [...history(6), { role: 'user', content: 'and now the follow-up' } as Message];
    const { messages, event } = await compactHistory(before, { provider, model: 'm', keepRecentTokens: 100, focus: 'the parser' });
    expect(provider.requests).toHaveLength(1);
    const request = provider.requests[0]!;
    expect(request.tools).toEqual([]);
    expect(request.messages[0]).toEqual({ role: 'system', content: SUMMARY_INSTRUCTIONS });
    expect(request.messages[1]!.content).toContain('and now the follow-up');
    expect(request.messages[1]!.content).toContain('Focus the summary on: the parser');
    expect(messages[0]).toEqual(before[0]);
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'and now the follow-up' });
    expect(event).toMatchObject({ type: 'compaction', replaced: { from: 1 }, summary: expect.stringMatching(/^SUMMARY of \d+ chars$/) });
    // Rebuilding from the event gives exactly the new history.
    const rebuilt = [...before];
    rebuilt.splice(event!.replaced!.from, event!.replaced!.count, ...event!.inserted!);
    expect(rebuilt).toEqual(messages);
    for (let i = 0; i < messages.length; i++) {
      const message = messages[i]!;
      if (message.role === 'assistant') expect(messages.slice(i + 1, i + 1 + message.toolCalls.length).map((m) => (m.role === 'tool' ? m.toolCallId : '?'))).toEqual(message.toolCalls.map((c) => c.id));
      if (message.role === 'tool') expect(['assistant', 'tool']).toContain(messages[i - 1]!.role);
    }
  });

  it('does nothing when only the newest turn and the pinned messages are there', async () => {
    const provider = new ScriptedProvider([]);
    const short = history(1);
    const { messages, event } = await compactHistory(short, { provider, model: 'm', keepRecentTokens: 0 });
    expect(event).toBeUndefined();
    expect(messages).toEqual(short);
    expect(provider.requests).toHaveLength(0);
  });
});

describe('the policy in the loop (in-process scripted model)', () => {
  it('reports a store that cannot save instead of failing the run', async () => {
    const big = defineTool({ name: 'big', description: 'big output', parameters: z.object({}), readOnly: true, execute: async () => bigOutput(9, 20_480) });
    const provider = new ScriptedProvider([{ toolCalls: [{ name: 'big', arguments: {} }] }, { text: 'done' }]);
    const registry = new ToolRegistry([big]);
    const failing = { put: () => Promise.reject(new Error('disk full')), get: () => Promise.resolve(undefined) };
    const policy = createContextPolicy({ provider, registry, store: failing, contextWindow: 8_192 });
    const events: string[] = [];
    const result = await run({ provider, model: 'm', input: 'go', tools: registry, prepareMessages: policy.prepareMessages }, (event) => {
      if (event.type === 'context_warning') events.push(event.message);
    });
    expect(result.stopReason).toBe('answered');
    expect(events).toEqual(['Could not save full tool outputs (read_output will not find them): disk full']);
    expect(provider.requests[1]!.messages.at(-1)!.content).toContain('full output saved as output id');
  });

  it('offers read_output once, when an output is first shortened, and never changes the registry itself', async () => {
    const big = defineTool({ name: 'big', description: 'big output', parameters: z.object({}), readOnly: true, execute: async () => bigOutput(9, 20_480) });
    const provider = new ScriptedProvider([{ toolCalls: [{ name: 'big', arguments: {} }] }, { toolCalls: [{ name: 'big', arguments: {} }] }, { text: 'done' }]);
    const registry = new ToolRegistry([big]);
    const offered: string[] = [];
    const policy = createContextPolicy({ provider, registry, contextWindow: 8_192, offerReadOutput: (tool) => offered.push(tool.name) });
    const result = await run({ provider, model: 'm', input: 'go', tools: registry, prepareMessages: policy.prepareMessages });
    expect(result.stopReason).toBe('answered');
    expect(offered).toEqual(['read_output']);
    expect(registry.schemas().map((schema) => schema.name)).toEqual(['big']);
    // The offered tool reads from the policy's own store.
    const id = /output id (out_[0-9a-f]{12})/.exec(String(provider.requests[1]!.messages.at(-1)!.content))![1]!;
    expect(await policy.store.get(id)).toBe(bigOutput(9, 20_480));
  });
});
