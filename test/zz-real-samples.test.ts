import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importForeignSession } from '../src/session/import/import-session.js';
import { startAnthropicServer } from './support/anthropic-server.js';
import { startChatServer } from './support/chat-server.js';
import { startGeminiServer } from './support/gemini-server.js';
import { startResponsesServer } from './support/responses-server.js';
import { spawnCli } from './support/cli-process.js';
import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);

// Each imported fixture resumed by the CLI on each wire: the strict local servers refuse a history
// with orphan results, calls without results or roles out of order, so an accepted request is the check.
const root = mkdtempSync(join(tmpdir(), 'vibe-import-wire-'));
const home = join(root, 'home');
const workspace = join(root, 'workspace');
mkdirSync(home);
mkdirSync(workspace);
const env = { HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config') };
const files: Record<string,string> = Object.fromEntries(require('node:fs').readdirSync('/tmp/samples', { recursive: true }).filter((f: string) => f.endsWith('.jsonl')).map((f: string) => [f, '/tmp/samples/' + f]));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const WIRES = [
  { wire: 'anthropic', start: () => startAnthropicServer([{ text: 'continued' }]), args: ['--provider', 'anthropic', '--model', 'claude-sonnet-4-5'], env: (url: string) => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: url }) },
  { wire: 'openai chat', start: () => startChatServer([{ text: 'continued' }]), args: ['--model', 'gpt-4.1'], env: (url: string) => ({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: url }) },
  { wire: 'openai responses', start: () => startResponsesServer([{ text: 'continued' }]), args: ['--model', 'gpt-4.1', '--wire', 'responses'], env: (url: string) => ({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: url }) },
  { wire: 'google', start: () => startGeminiServer([{ text: 'continued' }]), args: ['--provider', 'google', '--model', 'gemini-2.5-pro'], env: (url: string) => ({ GEMINI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: url }) },
];

describe('an imported session resumed on each provider', () => {
  const sessions = Object.entries(files).map(([name, path]) => ({ name, id: importForeignSession(path, { workspace, env }).sessionId }));
  for (const { wire, start, args, env: wireEnv } of WIRES) {
    it.each(sessions)(`${wire}: $name is accepted`, async ({ id }) => {
      const server = await start();
      try {
        const ran = await spawnCli([...args, '--tools', 'calculator', '--resume', id, 'go on'], { cwd: workspace, env: { ...env, ...wireEnv(server.url) } });
        if (server.violations.length) console.log('VIOLATION', JSON.stringify(server.violations).slice(0, 600));
        expect(server.violations).toEqual([]);
        expect(ran.code, ran.stderr).toBe(0);
        expect(ran.stdout).toContain('continued');
      } finally {
        await server.close();
      }
    });
  }
});
