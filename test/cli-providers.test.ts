import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer, type ServerStep } from './support/chat-server.js';
import { startGeminiServer, type GeminiServer, type GeminiStep } from './support/gemini-server.js';
import { homeEnv, spawnCli, type Ran } from './support/cli-process.js';
import { parseCliArgs } from '../src/cli/parse-command-line.js';
import { providerSettings } from '../src/cli/setup/provider-settings.js';
import { resolveSettings } from '../src/cli/setup/resolve-settings.js';
import { resolveProvider } from '../src/providers/create-provider.js';

const home = mkdtempSync(join(tmpdir(), 'vibe-cli-providers-'));
const servers: Array<ChatServer | GeminiServer> = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

function cli(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return spawnCli(args, { cwd: home, env: { ...homeEnv(home), ...env } });
}

async function gemini(script: GeminiStep[]) {
  const server = await startGeminiServer(script);
  servers.push(server);
  return server;
}

async function chat(script: ServerStep[]) {
  const server = await startChatServer(script);
  servers.push(server);
  return server;
}

describe('the CLI with --provider google', () => {
  it('runs a task on Gemini with GEMINI_API_KEY and GOOGLE_GEMINI_BASE_URL, on the default model', async () => {
    const server = await gemini([{ toolCalls: [{ name: 'calculator', arguments: { expression: '6 * 7' } }] }, { text: 'It is 42.' }]);
    const ran = await cli(['--provider', 'google', '--tools', 'course', 'What is 6 * 7?'], { GEMINI_API_KEY: 'gem-secret', GOOGLE_GEMINI_BASE_URL: server.url });
    expect(ran.stderr).not.toContain('gem-secret');
    expect(ran.code).toBe(0);
    expect(ran.stdout.trim()).toBe('It is 42.');
    expect(ran.stderr).toContain('→ calculator');
    expect(server.violations).toEqual([]);
    expect(server.requests.map((r) => r.model)).toEqual(['gemini-2.5-flash', 'gemini-2.5-flash']);
    expect(server.requests[0]!.apiKey).toBe('gem-secret');
  });

  it('--thinking asks Gemini for a thinking budget and to show its thoughts; an OpenAI-compatible provider refuses the flag', async () => {
    const server = await gemini([{ text: 'thought about it' }]);
    const ran = await cli(['--provider', 'google', '--thinking', '2048', 'think'], { GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: server.url });
    expect(ran.code).toBe(0);
    expect(server.requests[0]!.body.generationConfig).toMatchObject({ thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } });
    const refused = await cli(['--provider', 'deepseek', '--thinking', '2048', 'think'], { DEEPSEEK_API_KEY: 'k' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--thinking sets a thinking budget for --provider anthropic or google');
    const tooSmall = await cli(['--thinking', '10', 'x']);
    expect(tooSmall.code).toBe(2);
    expect(tooSmall.stderr).toContain('at least 1024');
  });

  it('accepts the alias gemini and GOOGLE_API_KEY, and says which variables are missing without a key', async () => {
    const server = await gemini([{ text: 'hi' }]);
    const ran = await cli(['--provider', 'gemini', '--model', 'gemini-2.5-pro', 'hello'], { GOOGLE_API_KEY: 'g-key', GOOGLE_GEMINI_BASE_URL: server.url });
    expect(ran.code).toBe(0);
    expect(server.requests[0]!.model).toBe('gemini-2.5-pro');
    const missing = await cli(['--provider', 'gemini', 'hello']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('GEMINI_API_KEY or GOOGLE_API_KEY');
  });
});

describe('the CLI with --max-cost', () => {
  const costly = { toolCalls: [{ name: 'calculator', arguments: { expression: '1+1' } }], usage: { inputTokens: 100_000, outputTokens: 10_000 } };

  it("stops with exit code 3 once the run's cost reaches the limit", async () => {
    const server = await chat([costly, costly, costly]);
    const ran = await cli(['--max-cost', '0.5', '--json', 'add'], { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'gpt-4o' });
    expect(ran.code).toBe(3);
    const stop = JSON.parse(ran.stdout.trim().split('\n').at(-1)!) as { type: string; reason: string; cost: number };
    expect(stop).toMatchObject({ type: 'stop', reason: 'cost_limit' });
    expect(stop.cost).toBeCloseTo(0.7, 10);
    expect(server.requests.length).toBe(2);
  });

  it('takes the limit from the project config too', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const workspace = join(home, 'priced-project');
    mkdirSync(join(workspace, '.vibe-agent'), { recursive: true });
    writeFileSync(join(workspace, '.vibe-agent', 'config.json'), JSON.stringify({ maxCost: 0.3 }));
    const server = await chat([costly, costly]);
    const ran = await cli(['--cwd', workspace, 'add'], { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'gpt-4o' });
    expect(ran.code).toBe(3);
    expect(ran.stderr).toContain('Stopped: the cost limit was reached. spent $0.3500 of the $0.3 limit');
    expect(server.requests.length).toBe(1);
  });

  it('rejects a bad amount, and a model without a known price, with exit code 2', async () => {
    const bad = await cli(['--max-cost', 'lots', 'x'], { OPENAI_API_KEY: 'k', VIBE_MODEL: 'gpt-4o' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-cost must be a positive amount');
    const unpriced = await cli(['--max-cost', '1', 'x'], { OPENAI_API_KEY: 'k', VIBE_MODEL: 'my-finetune' });
    expect(unpriced.code).toBe(2);
    expect(unpriced.stderr).toContain('none is known for "my-finetune"');
  });
});

describe('the CLI against a server that stops sending', () => {
  it('gives up on a stalled stream after VIBE_IDLE_TIMEOUT, shows the retry, and answers from the second try', async () => {
    const server = await chat([{ kind: 'stall', reply: { text: 'a reply that stops half way' }, afterChunks: 2 }, { text: 'the whole answer' }]);
    // The limit between frames must stay far from the healthy reply's own gaps, which a loaded machine
    // stretches (the first-byte limit, 60 s, covers the wait for the first frame).
    const ran = await cli(['--base-url', server.url, '--model', 'm', 'hi'], { OPENAI_API_KEY: 'k', VIBE_IDLE_TIMEOUT: '2' });
    expect(ran.stderr).toMatch(/retry \d in [\d.]+ s: openai: the stream stalled \(nothing received for 2 s\); gave up waiting\./);
    // Piped stdout gets the answer only: not the half reply that was given up.
    expect(ran.stdout).toBe('the whole answer\n');
    expect(ran.code).toBe(0);
    expect(server.requests.length).toBeGreaterThanOrEqual(2);
  });

  it('gives local servers 10 minutes before the first token by default, hosted ones the adapter default', () => {
    expect(resolveProvider({ provider: 'ollama', model: 'qwen', env: {} }).idleTimeoutMs).toBe(600_000);
    expect(resolveProvider({ provider: 'deepseek', env: { DEEPSEEK_API_KEY: 'k' } }).idleTimeoutMs).toBeUndefined();
    const env = { ANTHROPIC_API_KEY: 'k', VIBE_IDLE_TIMEOUT: '90' };
    expect(resolveProvider(providerSettings(resolveSettings(parseCliArgs(['--provider', 'anthropic', 'hi']), env, {}), env)).idleTimeoutMs).toBe(90_000);
    expect(resolveProvider({ provider: 'ollama', model: 'qwen', idleTimeoutMs: 90_000 }).idleTimeoutMs).toBe(90_000);
  });

  it('writes only the answer to a piped stdout; the text of tool turns goes to stderr', async () => {
    const server = await chat([{ text: 'Let me work it out.', toolCalls: [{ name: 'calculator', arguments: { expression: '6*7' } }] }, { text: 'It is 42.' }]);
    const ran = await cli(['--base-url', server.url, '--model', 'm', '--tools', 'course', 'what is 6*7?'], { OPENAI_API_KEY: 'k' });
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe('It is 42.\n');
    expect(ran.stderr).toContain('Let me work it out.\n');
  });

  it('rejects a VIBE_IDLE_TIMEOUT that is not a positive number of seconds, with exit code 2', async () => {
    const ran = await cli(['--model', 'm', 'hi'], { OPENAI_API_KEY: 'k', VIBE_IDLE_TIMEOUT: 'soon' });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('VIBE_IDLE_TIMEOUT must be a number of seconds above 0, got "soon".');
  });
});
