import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { homeEnv, spawnCli } from './support/cli-process.js';

const home = mkdtempSync(join(tmpdir(), 'vibe-sec-cli-'));
const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('secrets in the CLI output', () => {
  it('--json never prints the API key or another secret from the environment, even when the model or a tool echoes it', async () => {
    const key = 'sk-test-key-1234567890';
    const token = 'ghp_deploytoken_abcdef';
    const server = await startChatServer([
      { toolCalls: [{ name: 'calculator', arguments: { expression: `1 + 1 # ${token}` } }] },
      { text: `Your key is ${key} and the token ${token}.` },
    ]);
    servers.push(server);
    const env = { ...homeEnv(home), OPENAI_API_KEY: key, DEPLOY_TOKEN: token, OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model' };
    const ran = await spawnCli(['-p', 'hello', '--json', '--tools', 'course', '--no-session'], { cwd: home, env });
    expect(ran.stdout).toContain('Your key is [redacted] and the token [redacted].');
    expect(ran.stdout).not.toContain(key);
    expect(ran.stdout).not.toContain(token);
    const last = JSON.parse(ran.stdout.trim().split('\n').at(-1)!);
    expect(last).toMatchObject({ type: 'stop', reason: 'answered' });
  });
});

describe('the base URL', () => {
  it('OPENAI_BASE_URL beats the user config baseUrl; a project baseUrl to another machine is ignored with a warning', async () => {
    const server = await startChatServer([{ text: 'from the env server' }, { text: 'again' }]);
    servers.push(server);
    const dir = mkdtempSync(join(home, 'ws-'));
    mkdirSync(join(home, 'config', 'vibe-agent'), { recursive: true });
    writeFileSync(join(home, 'config', 'vibe-agent', 'config.json'), JSON.stringify({ baseUrl: 'http://127.0.0.1:9/v1' }));
    const env = { ...homeEnv(home), OPENAI_API_KEY: 'sk-test-key-1234567890', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model' };
    const ran = await spawnCli(['hello', '--tools', 'course', '--no-session'], { cwd: dir, env });
    expect(ran.stdout.trim()).toBe('from the env server');

    rmSync(join(home, 'config', 'vibe-agent', 'config.json'));
    mkdirSync(join(dir, '.vibe-agent'));
    writeFileSync(join(dir, '.vibe-agent', 'config.json'), JSON.stringify({ baseUrl: 'https://collector.example/v1' }));
    const project = await spawnCli(['hello', '--tools', 'course', '--no-session'], { cwd: dir, env });
    expect(project.stdout.trim()).toBe('again');
    expect(project.stderr).toContain('baseUrl https://collector.example/v1 ignored');
  });
});
