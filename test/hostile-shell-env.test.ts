/** Issue 19, class 9: bash children get no provider keys, and no tool output carries a known secret to the model. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PRESETS } from '../src/providers/presets.js';
import { createRedactor } from '../src/session/redact.js';
import { defineTool } from '../src/tools/define-tool.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { createBashTool } from '../src/tools/coding/shell/bash.js';
import { shellEnvironment } from '../src/tools/coding/shell/shell-env.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { homeEnv, spawnCli } from './support/cli-process.js';

const home = mkdtempSync(join(tmpdir(), 'vibe-shell-env-'));
const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('the environment bash children get', () => {
  it('has no preset key variable, no other *_API_KEY, and no variable holding --api-key; the rest passes', () => {
    const keys = Object.values(PRESETS).flatMap((preset) => [preset.keyVariable ?? [], ...(preset.altKeyVariables ?? [])].flat());
    expect(keys.length).toBeGreaterThan(5);
    const env = { PATH: '/bin', HOME: '/h', SOME_VENDOR_API_KEY: 'x', openai_api_key: 'y', MY_KEY_COPY: 'sk-flag-key', GITHUB_TOKEN: 'g', ...Object.fromEntries(keys.map((name) => [name, `${name}-value`])) };
    const child = shellEnvironment(env, { secrets: ['sk-flag-key'] });
    // Issue 27: any variable named like a secret (GITHUB_TOKEN too) is the user's, not the project's.
    for (const name of [...keys, 'SOME_VENDOR_API_KEY', 'openai_api_key', 'MY_KEY_COPY', 'GITHUB_TOKEN']) expect(child[name], name).toBeUndefined();
    expect(child).toMatchObject({ PATH: '/bin', HOME: '/h', GIT_TERMINAL_PROMPT: '0', PAGER: 'cat' });
    expect(shellEnvironment(env, { passEnv: ['GITHUB_TOKEN'] }).GITHUB_TOKEN).toBe('g');
    expect(shellEnvironment(env, { passEnv: ['GROQ_API_KEY'] }).GROQ_API_KEY).toBe('GROQ_API_KEY-value');
  });

  it('a real bash command sees none of them', async () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = 'sk-ant-inherited-123456';
    try {
      const registry = new ToolRegistry([createBashTool()]);
      const result = await registry.invoke({ id: 'c', name: 'bash', arguments: JSON.stringify({ command: 'echo "[$ANTHROPIC_API_KEY]"; env | grep -c API_KEY || true' }) }, { workspace: home });
      expect(result.content).toContain('[]');
      expect(result.content).not.toContain('sk-ant-inherited');
    } finally {
      if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved;
    }
  });
});

describe('tool output is redacted at the registry, for every tool', () => {
  it('a secret in a result, an error, a thrown message or past the output cap never reaches the model whole', async () => {
    const secret = 'sk-registry-secret-0987654321';
    const leaky = (name: string, run: () => string) => defineTool({ name, description: 'd', parameters: z.object({}), readOnly: true, execute: async () => run() });
    const registry = new ToolRegistry(
      [
        leaky('plain', () => `the key is ${secret}`),
        defineTool({ name: 'failing', description: 'd', parameters: z.object({}), readOnly: true, execute: async () => ({ output: `bad ${secret}`, isError: true }) }),
        leaky('throwing', () => {
          throw new Error(`boom ${secret}`);
        }),
        leaky('long', () => `${'a'.repeat(60)}${secret}${'b'.repeat(60)}`),
      ],
      { redact: createRedactor([secret]), maxOutputChars: 100 },
    );
    for (const name of ['plain', 'failing', 'throwing', 'long']) {
      const { content } = await registry.invoke({ id: 'c', name, arguments: '{}' });
      expect(content, name).not.toContain(secret.slice(0, 12));
      expect(content, name).not.toContain(secret.slice(-8));
      if (name !== 'long') expect(content, name).toContain('[redacted]');
    }
  });
});

describe('the CLI', () => {
  it('the model never sees the key: not from $OPENAI_API_KEY in bash, nor from a file that holds it; --pass-env passes one on deliberately', async () => {
    const key = 'sk-test-key-shell-1234567890';
    const dir = mkdtempSync(join(home, 'ws-'));
    writeFileSync(join(dir, 'notes.txt'), `copied key: ${key}\n`);
    const server = await startChatServer([
      { toolCalls: [{ name: 'bash', arguments: { command: 'echo "env=[$OPENAI_API_KEY]"; cat notes.txt' } }] },
      { text: 'done' },
      { toolCalls: [{ name: 'bash', arguments: { command: 'echo "passed=[${OPENAI_API_KEY:+yes}]"' } }] },
      { text: 'done again' },
    ]);
    servers.push(server);
    const env = { ...homeEnv(home), OPENAI_API_KEY: key, OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model' };
    const ran = await spawnCli(['hello', '--yes', '--no-session'], { cwd: dir, env });
    expect(ran.stdout).toContain('done');
    const toolTurn = JSON.stringify(server.requests[1]);
    expect(toolTurn).toContain('env=[]');
    expect(toolTurn).toContain('copied key: [redacted]');
    expect(toolTurn).not.toContain(key);

    await spawnCli(['again', '--yes', '--no-session', '--pass-env', 'OPENAI_API_KEY'], { cwd: dir, env });
    expect(JSON.stringify(server.requests[3])).toContain('passed=[yes]');
  });
});
