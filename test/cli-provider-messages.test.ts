import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { apiError, startAnthropicServer } from './support/anthropic-server.js';
import { startChatServer } from './support/chat-server.js';
import { rpcError, startGeminiServer } from './support/gemini-server.js';
import { startResponsesServer } from './support/responses-server.js';
import { homeEnv, spawnCli, type Ran } from './support/cli-process.js';

const home = mkdtempSync(join(tmpdir(), 'vibe-provider-messages-'));
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

function cli(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return spawnCli(args, { cwd: home, env: { ...homeEnv(home), ...env } });
}

async function started<T extends { close: () => Promise<void> }>(server: Promise<T>): Promise<T> {
  const ready = await server;
  closers.push(() => ready.close());
  return ready;
}

describe('what the CLI says when the provider cannot be reached or refuses the key', () => {
  it('no key but OPENAI_BASE_URL set: asks for the key only, says a dummy one works, and does not ask for the base URL again', async () => {
    const ran = await cli(['--model', 'qwen2.5-coder', 'task'], { OPENAI_BASE_URL: 'http://127.0.0.1:11999/v1' });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('Missing: OPENAI_API_KEY');
    expect(ran.stderr).toContain('any value works, e.g. OPENAI_API_KEY=local');
    expect(ran.stderr).toContain('export OPENAI_API_KEY=local');
    expect(ran.stderr).not.toContain('export OPENAI_BASE_URL');
    expect(ran.stderr).not.toContain('VIBE_MODEL');
  });

  it('only a key set: the one-shot CLI takes that provider and its default model, as the editor does', async () => {
    const server = await started(startAnthropicServer([{ text: 'hi from the default model' }]));
    const ran = await cli(['say hi'], { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.url });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('hi from the default model');
    expect(server.requests[0]!.model).toBe('claude-sonnet-4-5');
  });

  it('a host name that does not resolve: named at once, not retried for seconds', async () => {
    const ran = await cli(['--model', 'gpt-4.1', 'task'], { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://no-such-host.invalid/v1' });
    expect(ran.code).not.toBe(0);
    expect(ran.stderr).toContain('the host no-such-host.invalid does not resolve');
    expect(ran.stderr).not.toMatch(/retry/i);
  });

  interface Case {
    wire: string;
    start: () => Promise<{ url: string; close: () => Promise<void> }>;
    args: string[];
    env: (url: string) => Record<string, string>;
    says: string;
  }
  it.each<Case>([
    {
      wire: 'anthropic',
      start: () => startAnthropicServer([{ kind: 'http_error', status: 401, body: { ...apiError('authentication_error', 'invalid x-api-key'), request_id: 'req_011' } }]),
      args: ['--provider', 'anthropic'],
      env: (url: string) => ({ ANTHROPIC_API_KEY: 'bad', ANTHROPIC_BASE_URL: url }),
      says: 'anthropic: authentication failed (401): invalid x-api-key — check ANTHROPIC_API_KEY',
    },
    {
      wire: 'openai chat',
      start: () => startChatServer([{ kind: 'http_error', status: 401, body: { error: { message: 'Incorrect API key provided: bad.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } } }]),
      args: ['--model', 'gpt-4.1'],
      env: (url: string) => ({ OPENAI_API_KEY: 'bad', OPENAI_BASE_URL: url }),
      says: 'openai: authentication failed (401): Incorrect API key provided: bad — check OPENAI_API_KEY',
    },
    {
      wire: 'openai chat, a server whose error is a bare string',
      start: () => startChatServer([{ kind: 'http_error', status: 401, body: { error: 'Unauthorized: missing bearer token' } }]),
      args: ['--model', 'gpt-4.1'],
      env: (url: string) => ({ OPENAI_API_KEY: 'bad', OPENAI_BASE_URL: url }),
      says: 'openai: authentication failed (401): Unauthorized: missing bearer token — check OPENAI_API_KEY',
    },
    {
      wire: 'openai responses',
      start: () => startResponsesServer([{ kind: 'http_error', status: 401, body: { error: { message: 'Incorrect API key provided: bad.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } } }]),
      args: ['--model', 'gpt-4.1', '--wire', 'responses'],
      env: (url: string) => ({ OPENAI_API_KEY: 'bad', OPENAI_BASE_URL: url }),
      says: 'openai: authentication failed (401): Incorrect API key provided: bad — check OPENAI_API_KEY',
    },
    {
      wire: 'google',
      start: () => startGeminiServer([{ kind: 'http_error', status: 401, body: rpcError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.') }]),
      args: ['--provider', 'google'],
      env: (url: string) => ({ GEMINI_API_KEY: 'bad', GOOGLE_GEMINI_BASE_URL: url }),
      says: 'google: authentication failed (401 UNAUTHENTICATED): Request had invalid authentication credentials — check GEMINI_API_KEY or GOOGLE_API_KEY',
    },
  ])('$wire: a 401 prints the provider\'s message and the key variable, not the JSON body', async ({ start, args, env, says }) => {
    const server = await started(start());
    const ran = await cli([...args, 'task'], env(server.url));
    expect(ran.code).not.toBe(0);
    expect(ran.stderr).toContain(says);
    expect(ran.stderr).not.toMatch(/[{}]/);
  });
});
