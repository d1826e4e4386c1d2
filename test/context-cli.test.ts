import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatRequestBody, type ChatServer } from './support/chat-server.js';
import { bigOutput } from './support/context-session.js';
import { homeEnv, spawnCli, type Ran } from './support/cli-process.js';

// Spawns the built CLI (npm run build first), as test/cli.test.ts does.
const home = mkdtempSync(join(tmpdir(), 'vibe-context-cli-'));
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

function cli(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return spawnCli(args, { cwd: home, env: { ...homeEnv(home), ...env } });
}

async function pageServer(text: string): Promise<string> {
  const server: Server = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(text));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/page.txt`;
}

const lastTool = (body: ChatRequestBody) => String(body.messages.at(-1)?.content);

describe('the CLI with the context policy', () => {
  it('caps a long tool output under --context-window, offers read_output, and serves the full text from it', async () => {
    const page = bigOutput(5, 18_000);
    const url = await pageServer(page);
    let chat: ChatServer | undefined;
    chat = await startChatServer([
      { toolCalls: [{ name: 'fetch_url', arguments: { url } }] },
      (body) => ({ toolCalls: [{ name: 'read_output', arguments: { id: /output id (out_[0-9a-f]{12})/.exec(lastTool(body))![1]!, offset: 5_000, limit: 3_000 } }] }),
      { text: 'Read it.' },
    ]);
    closers.push(() => chat!.close());
    const ran = await cli(['Summarise the page', '--tools', 'fetch_url', '--context-window', '4096', '--yes', '--fetch-private', '127.0.0.1'], {
      OPENAI_API_KEY: 'test-key',
      OPENAI_BASE_URL: chat.url,
      VIBE_MODEL: 'test-model',
    });
    expect(ran.stderr).not.toContain('unexpected error');
    expect(ran.code).toBe(0);
    expect(chat.violations).toEqual([]);
    const [first, second, third] = chat.requests;
    // read_output is offered from the first request: the tool list (the cached prefix's start) never changes mid-run.
    expect(first!.tools!.map((t) => t.function.name)).toEqual(['fetch_url', 'read_output']);
    expect(second!.tools!.map((t) => t.function.name)).toEqual(['fetch_url', 'read_output']);
    expect(lastTool(second!).length).toBeLessThan(3_000);
    expect(lastTool(second!)).toMatch(/omitted of [\d,]+; full output saved as output id out_[0-9a-f]{12}; call read_output to see more/);
    // The stored output is the tool's full result (status line and headers, then the page).
    const slice = lastTool(third!);
    expect(slice).toMatch(/^\[output out_[0-9a-f]{12}: characters 5000–8000 of \d+; more from offset 8000\]\n/);
    const body = slice.slice(slice.indexOf('\n') + 1);
    expect(body).toHaveLength(3_000);
    expect(page).toContain(body.slice(200));
  });

  it('rejects a context window too small to work in (exit 2)', async () => {
    const ran = await cli(['x', '--context-window', '100'], {});
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('--context-window must be at least 1024 tokens, got 100.');
  });
});
