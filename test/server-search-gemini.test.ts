/** Gemini's Google Search grounding: through the real SDK (and the built CLI) against the strict Gemini server. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { run } from '../src/core/loop.js';
import type { AssistantMessage } from '../src/contracts/messages.js';
import { GoogleProvider } from '../src/providers/google/google-provider.js';
import { defineTool } from '../src/tools/define-tool.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { cliHome, CLI_SESSION_TIMEOUT_MS } from './support/cli-process.js';
import { startGeminiServer, type GeminiServer, type GeminiStep } from './support/gemini-server.js';

const servers: GeminiServer[] = [];
const home = cliHome();
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
afterAll(() => home.cleanup());

const PAGES = [
  { url: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/abc', title: 'nodejs.org' },
  { url: 'https://vertexaisearch.cloud.google.com/grounding-api-redirect/def', title: 'example.com' },
];
const echo = defineTool({ name: 'echo', description: 'Echoes.', parameters: z.object({ v: z.string() }), readOnly: true, execute: async ({ v }) => `echo ${v}` });

async function server(script: GeminiStep[]): Promise<GeminiServer> {
  const started = await startGeminiServer(script);
  servers.push(started);
  return started;
}

describe("Gemini's Google Search grounding", () => {
  it('turns googleSearch on beside the function declarations, the same in every request, and keeps the grounding as citations (none of it sent back)', async () => {
    const target = await server([{ text: 'Node 24 is out.', toolCalls: [{ name: 'echo', arguments: { v: 'x' } }], grounding: { queries: ['node 24 release'], pages: PAGES } }, { text: 'Bye.' }]);
    const provider = new GoogleProvider({ apiKey: 'g-test', baseURL: target.url, webSearch: { maxUses: 5, maxSearches: 10 } });
    const result = await run({ provider, model: 'gemini-3-pro', input: 'What is new in Node?', tools: new ToolRegistry([echo]), retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 } }, () => {});
    expect(target.violations).toEqual([]);
    expect(result.answer).toBe('Bye.');
    const [first, second] = target.requests;
    expect(first!.body.tools).toEqual([{ functionDeclarations: [expect.objectContaining({ name: 'echo' })] }, { googleSearch: {} }]);
    expect(JSON.stringify(second!.body.tools)).toBe(JSON.stringify(first!.body.tools));
    // The grounded turn went back as its text and call only (the server refuses any other part field).
    expect(second!.body.contents![1]!.parts).toEqual([{ text: 'Node 24 is out.' }, { functionCall: { name: 'echo', args: { v: 'x' } }, thoughtSignature: 'skip_thought_signature_validator' }]);
    const reply = result.messages.find((message): message is AssistantMessage => message.role === 'assistant')!;
    expect(reply.citations).toEqual(PAGES.map((page) => ({ ...page, citedText: 'Node 24 is out.' })));
  });

  it(
    'from the CLI: the answer with its sources, and the citations in the session file',
    async () => {
      const path = `${home.env.XDG_CONFIG_HOME}/vibe-agent/config.json`;
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, JSON.stringify({ webSearch: { service: 'provider' } }));
      const target = await server([{ text: 'Node 24 is out.', grounding: { queries: ['node 24 release'], pages: PAGES.slice(0, 1) } }]);
      const ran = await home.run(['--provider', 'google', 'What is new in Node?'], { GEMINI_API_KEY: 'g-test', GOOGLE_GEMINI_BASE_URL: target.url });
      expect(ran.code).toBe(0);
      expect(target.violations).toEqual([]);
      expect(ran.stdout).toBe(`Node 24 is out.\n\nSources:\n1. nodejs.org — ${PAGES[0]!.url}\n`);
      const [file] = home.sessionFiles();
      const saved = readFileSync(home.sessionPath(file!), 'utf8');
      expect(saved).toContain(`"citations":[{"url":"${PAGES[0]!.url}","title":"nodejs.org","citedText":"Node 24 is out."}]`);
    },
    CLI_SESSION_TIMEOUT_MS,
  );
});
