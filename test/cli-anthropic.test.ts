/** `--provider anthropic` from configuration to a real run: the built CLI against the Messages API server. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { AnthropicProvider } from '../src/providers/anthropic/anthropic-provider.js';
import { ConfigError, createProvider, resolveProvider } from '../src/providers/create-provider.js';
import { startAnthropicServer, type AnthropicServer } from './support/anthropic-server.js';
import { homeEnv, spawnCli, type Ran } from './support/cli-process.js';

const home = mkdtempSync(join(tmpdir(), 'vibe-cli-anthropic-'));
const servers: AnthropicServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

function cli(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return spawnCli(args, { cwd: home, env: { ...homeEnv(home), ...env } });
}

describe('the anthropic preset', () => {
  it('reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL, defaults the model, and builds the native provider', async () => {
    const resolved = resolveProvider({ provider: 'anthropic', env: { ANTHROPIC_API_KEY: 'sk-ant-1', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9999' } });
    expect(resolved).toMatchObject({ model: 'claude-sonnet-4-5', apiKey: 'sk-ant-1', baseURL: 'http://127.0.0.1:9999', preset: { protocol: 'anthropic' } });
    expect(resolveProvider({ provider: 'anthropic', env: { ANTHROPIC_API_KEY: 'k' } }).baseURL).toBe('https://api.anthropic.com');
    const provider = await createProvider(resolved);
    expect(provider).toBeInstanceOf(AnthropicProvider);
    expect(provider.name).toBe('anthropic');
  });

  it('says which variable is missing when there is no key', () => {
    expect(() => resolveProvider({ provider: 'anthropic', env: {} })).toThrow(ConfigError);
    expect(() => resolveProvider({ provider: 'anthropic', env: {} })).toThrow(/ANTHROPIC_API_KEY/);
  });
});

describe('vibe-agent --provider anthropic', () => {
  it('runs a tool round trip against the Messages API and prints the answer', async () => {
    const server = await startAnthropicServer([{ toolCalls: [{ name: 'calculator', arguments: { expression: '6 * 7' } }] }, { text: '6 × 7 = 42' }]);
    servers.push(server);
    const ran = await cli(['--provider', 'anthropic', '--tools', 'calculator', 'What is 6 × 7?'], { ANTHROPIC_API_KEY: 'sk-ant-cli', ANTHROPIC_BASE_URL: server.url });
    expect(ran.stderr).not.toContain('sk-ant-cli');
    expect(ran.code).toBe(0);
    expect(ran.stdout.trim()).toBe('6 × 7 = 42');
    expect(server.violations).toEqual([]);
    expect(server.requests[0]!.model).toBe('claude-sonnet-4-5');
    expect(typeof server.requests[0]!.system).toBe('string');
  });

  it('--thinking turns on extended thinking with that budget, and the thinking is shown', async () => {
    const server = await startAnthropicServer([{ reasoning: 'Six sevens are forty-two.', text: '42' }]);
    servers.push(server);
    const ran = await cli(['--provider', 'anthropic', '--thinking', '4096', 'What is 6 × 7?'], { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url });
    expect(ran.code).toBe(0);
    expect(server.violations).toEqual([]);
    expect(server.requests[0]!.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    expect(server.requests[0]!.max_tokens).toBeGreaterThan(4096);
    expect(ran.stderr).toContain('Six sevens are forty-two.');
    expect(ran.stdout.trim()).toBe('42');
  });
});
