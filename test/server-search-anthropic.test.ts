/** Anthropic's own web search tool: through the real SDK (and the built CLI) against the strict Messages API server. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { run } from '../src/core/loop.js';
import type { AgentEvent } from '../src/contracts/events.js';
import type { AssistantMessage, Message } from '../src/contracts/messages.js';
import { ProviderError } from '../src/contracts/provider-error.js';
import { AnthropicProvider } from '../src/providers/anthropic/anthropic-provider.js';
import { readSessionFile } from '../src/session/read-session.js';
import { buildTrace } from '../src/trace/build-trace.js';
import { defineTool } from '../src/tools/define-tool.js';
import { ToolRegistry } from '../src/tools/registry.js';
import type { WireBlock } from './support/anthropic-protocol-check.js';
import { startAnthropicServer, type AnthropicServer, type AnthropicStep } from './support/anthropic-server.js';
import { cliHome, CLI_SESSION_TIMEOUT_MS } from './support/cli-process.js';

const servers: AnthropicServer[] = [];
const home = cliHome();
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
afterAll(() => home.cleanup());

const PAGES = [
  { url: 'https://nodejs.org/en/blog/release/v24.0.0', title: 'Node.js 24.0.0' },
  { url: 'https://example.com/node-news', title: 'Node news' },
];
const search = { maxUses: 3, maxSearches: 10 };
const echo = defineTool({ name: 'echo', description: 'Echoes.', parameters: z.object({ v: z.string() }), readOnly: true, execute: async ({ v }) => `echo ${v}` });

async function server(script: AnthropicStep[]): Promise<AnthropicServer> {
  const started = await startAnthropicServer(script);
  servers.push(started);
  return started;
}

async function runAgent(target: AnthropicServer) {
  const events: AgentEvent[] = [];
  const provider = new AnthropicProvider({ apiKey: 'sk-ant-test', baseURL: target.url, webSearch: search });
  const result = await run({ provider, model: 'claude-test', input: 'What is new in Node?', tools: new ToolRegistry([echo]), retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 } }, (event) => events.push(event));
  return { result, events, provider };
}

const assistantOf = (message: { role: string; content: unknown }) => message.content as WireBlock[];

describe("Anthropic's web search tool", () => {
  it('a reply mixing a server search and a client call: only the client call runs, and every later request sends the reply back byte-identical', async () => {
    const target = await server([
      { kind: 'web_search', query: 'node 24 release', results: PAGES, cite: [0, 1], reply: { text: 'Node 24 is out.', toolCalls: [{ id: 'toolu_c1', name: 'echo', arguments: { v: 'x' } }] } },
      { toolCalls: [{ id: 'toolu_c2', name: 'echo', arguments: { v: 'y' } }] },
      { text: 'Done.' },
    ]);
    const { result, events } = await runAgent(target);
    expect(target.violations).toEqual([]);
    expect(result.answer).toBe('Done.');
    const calls = events.filter((event) => event.type === 'tool_call_end').map((event) => (event as { name: string }).name);
    expect(calls).toEqual(['echo', 'echo']);
    const [first, second, third] = target.requests;
    // The server tool is in every request, the same bytes each time (the tools are the cached prefix).
    expect(first!.tools!.at(-1)).toEqual({ type: 'web_search_20250305', name: 'web_search', max_uses: 3 });
    expect(JSON.stringify(second!.tools)).toBe(JSON.stringify(first!.tools));
    expect(JSON.stringify(third!.tools)).toBe(JSON.stringify(first!.tools));
    const sent = assistantOf(second!.messages[1]!);
    expect(sent.map((block) => block.type)).toEqual(['server_tool_use', 'web_search_tool_result', 'text', 'text', 'tool_use']);
    expect(JSON.stringify(third!.messages[1])).toBe(JSON.stringify(second!.messages[1]));
    const reply = result.messages.find((message): message is AssistantMessage => message.role === 'assistant')!;
    expect(reply.toolCalls.map((call) => call.id)).toEqual(['toolu_c1']);
    expect(reply.citations).toEqual(PAGES.map((page) => ({ ...page, citedText: `quoted from ${page.title}` })));
  });

  it('a search left pending beside a client call goes back with the turn, where the API runs it', async () => {
    const target = await server([
      { kind: 'web_search', query: 'node 24', results: PAGES, pending: true, reply: { toolCalls: [{ id: 'toolu_p', name: 'echo', arguments: { v: 'x' } }] } },
      { text: 'Answered.' },
    ]);
    await runAgent(target);
    expect(target.violations).toEqual([]);
    expect(assistantOf(target.requests[1]!.messages[1]!).map((block) => block.type)).toEqual(['server_tool_use', 'tool_use']);
  });

  it('a pause_turn is continued by sending the paused turn back as it came, citations and all', async () => {
    const target = await server([
      { kind: 'web_search', query: 'node 24', results: PAGES, pause: true, reply: { text: 'Still looking.' } },
      { text: 'Finished.' },
    ]);
    const { result } = await runAgent(target);
    expect(target.violations).toEqual([]);
    expect(result.answer).toBe('Here is what I found: Still looking.Finished.');
    expect(assistantOf(target.requests[1]!.messages.at(-1)!).map((block) => block.type)).toEqual(['server_tool_use', 'web_search_tool_result', 'text', 'text']);
  });

  it("once the session's maxSearches are made, later requests leave the server tool out", async () => {
    const target = await server([
      { kind: 'web_search', query: 'node 24', results: PAGES, reply: { text: 'Node 24 is out.', toolCalls: [{ id: 'toolu_m', name: 'echo', arguments: { v: 'x' } }] } },
      { text: 'Done.' },
    ]);
    const provider = new AnthropicProvider({ apiKey: 'sk-ant-test', baseURL: target.url, webSearch: { maxUses: 5, maxSearches: 1 } });
    await run({ provider, model: 'claude-test', input: 'go', tools: new ToolRegistry([echo]), retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 } }, () => {});
    expect(target.violations).toEqual([]);
    expect(target.requests[0]!.tools!.map((tool) => tool.name)).toEqual(['echo', 'web_search']);
    expect(target.requests[0]!.tools!.at(-1)).toMatchObject({ max_uses: 1 });
    expect(target.requests[1]!.tools!.map((tool) => tool.name)).toEqual(['echo']);
  });

  it('sent to another model, a reply with search blocks is rebuilt from its text (the blocks stay with the model that made them)', async () => {
    const first = await server([{ kind: 'web_search', query: 'node 24', results: PAGES, reply: { text: 'Node 24 is out.' } }]);
    const { result } = await runAgent(first);
    const second = await server([{ text: 'ok' }]);
    const other = new AnthropicProvider({ apiKey: 'sk-ant-test', baseURL: second.url });
    for await (const _event of other.stream({ model: 'claude-other', messages: [...result.messages, { role: 'user', content: 'and?' }], tools: [], temperature: 0 })) {
      // drain
    }
    expect(second.violations).toEqual([]);
    expect(second.requests[0]!.messages[1]!.content).toEqual([{ type: 'text', text: 'Here is what I found: Node 24 is out.' }]);
  });

  describe('the server refuses, as the API does, a history whose search blocks were tampered with', () => {
    async function searched() {
      const target = await server([
        { kind: 'web_search', query: 'node 24', results: PAGES, reply: { text: 'Node 24 is out.' } },
        { text: 'never sent' },
      ]);
      const { result, provider } = await runAgent(target);
      return { target, provider, history: result.messages };
    }

    async function refused(provider: AnthropicProvider, messages: Message[]): Promise<ProviderError> {
      try {
        for await (const _event of provider.stream({ model: 'claude-test', messages: [...messages, { role: 'user', content: 'and?' }], tools: [{ name: 'echo', description: 'Echoes.', parameters: { type: 'object' } }], temperature: 0 })) {
          // drain
        }
      } catch (error) {
        if (error instanceof ProviderError) return error;
        throw error;
      }
      throw new Error('expected the request to be refused');
    }

    /** The history with the reply's kept blocks passed through `change`. */
    function tampered(history: Message[], change: (blocks: WireBlock[]) => WireBlock[]): Message[] {
      return history.map((message) => {
        if (message.role !== 'assistant' || !message.providerData) return message;
        const content = structuredClone(message.providerData.content) as WireBlock[];
        return { ...message, providerData: { ...message.providerData, content: change(content) } };
      });
    }

    it('an encrypted_content changed', async () => {
      const { target, provider, history } = await searched();
      const error = await refused(provider, tampered(history, (blocks) => blocks.map((block) => (block.type === 'web_search_tool_result' ? { ...block, content: (block.content as WireBlock[]).map((r, i) => (i === 0 ? { ...r, encrypted_content: `${String(r.encrypted_content)}x` } : r)) } : block))));
      expect(error.kind).toBe('bad_request');
      expect(target.violations.join('\n')).toMatch(/invalid encrypted_content/);
    });

    it('the search blocks dropped while the text keeps their citations', async () => {
      const { target, provider, history } = await searched();
      const error = await refused(provider, tampered(history, (blocks) => blocks.filter((block) => block.type === 'text')));
      expect(error.kind).toBe('bad_request');
      expect(target.violations.join('\n')).toMatch(/citation's web search result is not in the request/);
    });

    it('a server_tool_use altered', async () => {
      const { target, provider, history } = await searched();
      const error = await refused(provider, tampered(history, (blocks) => blocks.map((block) => (block.type === 'server_tool_use' ? { ...block, input: { query: 'something else' } } : block))));
      expect(error.kind).toBe('bad_request');
      expect(target.violations.join('\n')).toMatch(/server_tool_use .* altered/);
    });

    it('unchanged, the same history is taken (the refusals above are the tampering)', async () => {
      const { target, provider, history } = await searched();
      for await (const _event of provider.stream({ model: 'claude-test', messages: [...history, { role: 'user', content: 'and?' }], tools: [], temperature: 0 })) {
        // drain
      }
      expect(target.violations).toEqual([]);
    });
  });
});

describe('vibe-agent with "webSearch": { "service": "provider" } on Anthropic', () => {
  function writeConfig(config: Record<string, unknown>): void {
    const path = `${home.env.XDG_CONFIG_HOME}/vibe-agent/config.json`;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify(config));
  }

  it(
    'prints the answer with its sources, keeps the citations in the session and trace, and a resumed session sends the blocks back unchanged',
    async () => {
      writeConfig({ webSearch: { service: 'provider', maxUses: 2 } });
      const target = await server([{ kind: 'web_search', query: 'node 24', results: PAGES, reply: { text: 'Node 24 is out.' } }, { text: 'Nothing more.' }]);
      const env = { ANTHROPIC_API_KEY: 'sk-ant-cli', ANTHROPIC_BASE_URL: target.url };
      const ran = await home.run(['--provider', 'anthropic', 'What is new in Node?'], env);
      expect(ran.stderr).toBe('');
      expect(ran.code).toBe(0);
      expect(ran.stdout).toBe(`Here is what I found: Node 24 is out.\n\nSources:\n1. Node.js 24.0.0 — ${PAGES[0]!.url}\n`);
      expect(target.requests[0]!.tools!.at(-1)).toMatchObject({ type: 'web_search_20250305', name: 'web_search', max_uses: 2 });
      expect(target.requests[0]!.tools!.some((tool) => tool.name === 'web_search' && tool.input_schema)).toBe(false);

      const [file] = home.sessionFiles();
      const records = readFileSync(home.sessionPath(file!), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; message?: AssistantMessage });
      const saved = records.find((record) => record.type === 'assistant_message')!.message!;
      expect(saved.citations).toEqual([{ ...PAGES[0], citedText: 'quoted from Node.js 24.0.0' }]);
      const trace = await buildTrace(readSessionFile(home.sessionPath(file!)), { file: file! });
      expect(JSON.stringify(trace)).toContain('"citations":[{"url":"https://nodejs.org/en/blog/release/v24.0.0"');

      const resumed = await home.run(['--provider', 'anthropic', '--continue', 'Anything else?'], env);
      expect(resumed.code).toBe(0);
      expect(target.violations).toEqual([]);
      expect(assistantOf(target.requests[1]!.messages[1]!).map((block) => block.type)).toEqual(['server_tool_use', 'web_search_tool_result', 'text', 'text']);
    },
    CLI_SESSION_TIMEOUT_MS,
  );

  it('a deny rule naming web_search turns the server tool off, with a warning', async () => {
    writeConfig({ webSearch: { service: 'provider' }, permissions: { deny: ['web_search'] } });
    const target = await server([{ text: 'No search.' }]);
    const ran = await home.run(['--provider', 'anthropic', 'hi'], { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: target.url });
    expect(ran.code).toBe(0);
    expect(ran.stderr).toContain('permissions.deny covers web_search');
    expect(target.requests[0]!.tools!.some((tool) => tool.name === 'web_search')).toBe(false);
  });

  it('a provider without a server-side search (Chat Completions) is a config error naming the alternatives', async () => {
    writeConfig({ webSearch: { service: 'provider' } });
    const ran = await home.run(['--provider', 'openai', '--model', 'gpt-4.1', '--wire', 'chat', 'hi'], { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1' });
    expect(ran.code).not.toBe(0);
    expect(ran.stderr).toMatch(/on the Chat Completions wire has none/);
    expect(ran.stderr).toMatch(/searxng/);
  });
});
