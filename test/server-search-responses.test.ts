/** OpenAI's own `web_search` on the Responses wire: through the real SDK (and the built CLI) against the strict Responses server. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { run } from '../src/core/loop.js';
import type { AssistantMessage, Message } from '../src/contracts/messages.js';
import { ProviderError } from '../src/contracts/provider-error.js';
import { ResponsesProvider } from '../src/providers/openai-responses/responses-provider.js';
import { defineTool } from '../src/tools/define-tool.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { cliHome, CLI_SESSION_TIMEOUT_MS } from './support/cli-process.js';
import { startResponsesServer, type ResponsesServer, type ResponsesStep } from './support/responses-server.js';

const servers: ResponsesServer[] = [];
const home = cliHome();
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
afterAll(() => home.cleanup());

const SOURCES = [
  { url: 'https://nodejs.org/en/blog/release/v24.0.0', title: 'Node.js 24.0.0' },
  { url: 'https://example.com/node-news', title: 'Node news' },
];
const echo = defineTool({ name: 'echo', description: 'Echoes.', parameters: z.object({ v: z.string() }), readOnly: true, execute: async ({ v }) => `echo ${v}` });

async function server(script: ResponsesStep[]): Promise<ResponsesServer> {
  const started = await startResponsesServer(script);
  servers.push(started);
  return started;
}

function provider(target: ResponsesServer): ResponsesProvider {
  return new ResponsesProvider({ apiKey: 'sk-test', baseURL: target.url, webSearch: { maxUses: 5, maxSearches: 10 } });
}

describe("OpenAI's web_search on the Responses wire", () => {
  it('a turn that searched and called a tool: the web_search_call goes back after its reasoning item, the tools stay the same bytes, the citations are kept', async () => {
    const target = await server([
      { kind: 'web_search', query: 'node 24', sources: SOURCES, reply: { reasoning: 'Search, then echo.', text: 'Node 24 is out.', toolCalls: [{ id: 'c1', name: 'echo', arguments: { v: 'x' } }] } },
      { text: 'Done.' },
    ]);
    const result = await run({ provider: provider(target), model: 'gpt-5', input: 'What is new in Node?', tools: new ToolRegistry([echo]), retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 } }, () => {});
    expect(target.violations).toEqual([]);
    expect(result.answer).toBe('Done.');
    const [first, second] = target.requests;
    expect(first!.tools!.at(-1)).toEqual({ type: 'web_search' });
    expect(JSON.stringify(second!.tools)).toBe(JSON.stringify(first!.tools));
    expect(second!.input.map((item) => item.type)).toEqual(['message', 'reasoning', 'web_search_call', 'message', 'function_call', 'function_call_output']);
    const reply = result.messages.find((message): message is AssistantMessage => message.role === 'assistant')!;
    expect(reply.citations).toEqual(SOURCES);
  });

  describe('the server refuses, as the API does with store: false, a web_search_call not sent back as it came', () => {
    async function searched() {
      const target = await server([{ kind: 'web_search', query: 'node 24', sources: SOURCES, reply: { reasoning: 'Search.', text: 'Found.', toolCalls: [{ id: 'c1', name: 'echo', arguments: { v: 'x' } }] } }]);
      const chosen = provider(target);
      const history: Message[] = [{ role: 'user', content: 'go' }];
      for await (const event of chosen.stream({ model: 'gpt-5', messages: history, tools: [{ name: 'echo', description: 'Echoes.', parameters: { type: 'object' } }], temperature: 0 })) {
        if (event.type === 'response') history.push(event.response.message, { role: 'tool', toolCallId: 'c1', name: 'echo', content: 'echo x', isError: false });
      }
      return { target, chosen, history };
    }

    async function refused(chosen: ResponsesProvider, messages: Message[]): Promise<ProviderError> {
      try {
        for await (const _event of chosen.stream({ model: 'gpt-5', messages, tools: [], temperature: 0 })) {
          // drain
        }
      } catch (error) {
        if (error instanceof ProviderError) return error;
        throw error;
      }
      throw new Error('expected the request to be refused');
    }

    function withItems(history: Message[], change: (items: Array<Record<string, unknown>>) => Array<Record<string, unknown>>): Message[] {
      return history.map((message) =>
        message.role === 'assistant' && message.providerData ? { ...message, providerData: { ...message.providerData, responsesReasoning: change(structuredClone(message.providerData.responsesReasoning) as Array<Record<string, unknown>>) } } : message,
      );
    }

    it('altered', async () => {
      const { target, chosen, history } = await searched();
      const error = await refused(chosen, withItems(history, (items) => items.map((item) => (item.type === 'web_search_call' ? { ...item, action: { type: 'search', query: 'other' } } : item))));
      expect(error.kind).toBe('bad_request');
      expect(target.violations.join('\n')).toMatch(/differs from the one the API returned/);
    });

    it('dropped from after its reasoning item', async () => {
      const { target, chosen, history } = await searched();
      const error = await refused(chosen, withItems(history, (items) => items.filter((item) => item.type !== 'web_search_call')));
      expect(error.kind).toBe('bad_request');
      expect(target.violations.join('\n')).toMatch(/without its required following item: 'ws_1'/);
    });
  });

  it(
    'from the CLI: the answer with its sources, and the citations in the session file',
    async () => {
      const path = `${home.env.XDG_CONFIG_HOME}/vibe-agent/config.json`;
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, JSON.stringify({ webSearch: { service: 'provider', allowedDomains: ['nodejs.org'] } }));
      const target = await server([{ kind: 'web_search', query: 'node 24', sources: SOURCES.slice(0, 1), reply: { text: 'Node 24 is out.' } }]);
      const ran = await home.run(['--wire', 'responses', 'What is new in Node?'], { OPENAI_API_KEY: 'sk-test-123456', OPENAI_BASE_URL: target.url, VIBE_MODEL: 'gpt-5' });
      expect(ran.code).toBe(0);
      expect(target.violations).toEqual([]);
      expect(ran.stdout).toBe(`Node 24 is out.\n\nSources:\n1. Node.js 24.0.0 — ${SOURCES[0]!.url}\n`);
      expect(target.requests[0]!.tools!.at(-1)).toEqual({ type: 'web_search', filters: { allowed_domains: ['nodejs.org'] } });
      const [file] = home.sessionFiles();
      const saved = readFileSync(home.sessionPath(file!), 'utf8');
      expect(saved).toContain(`"citations":[{"url":"${SOURCES[0]!.url}","title":"Node.js 24.0.0"}]`);
    },
    CLI_SESSION_TIMEOUT_MS,
  );
});
