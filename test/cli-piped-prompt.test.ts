import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { CLI, homeEnv } from './support/cli-process.js';

const home = mkdtempSync(join(tmpdir(), 'vibe-piped-'));
const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** Runs the CLI with `stdin` piped in (so neither stdin nor stdout is a terminal); spawnCli ignores stdin. */
function cliWithStdin(stdin: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI], {
      cwd: home,
      env: { PATH: process.env.PATH ?? '', ...homeEnv(home), XDG_DATA_HOME: join(home, 'data'), NO_COLOR: '1', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe('vibe-agent with no prompt and no terminal', () => {
  it('reads the prompt from piped stdin and runs it one-shot with the plain renderer', async () => {
    const server = await startChatServer([{ text: '4' }]);
    servers.push(server);
    const ran = await cliWithStdin('What is 2 + 2?\n', { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'm' });
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe('4\n');
    expect(server.requests[0]!.messages.at(-1)).toEqual({ role: 'user', content: 'What is 2 + 2?' });
  });

  it('says how to give a prompt when stdin is empty (exit 2)', async () => {
    const ran = await cliWithStdin('', { OPENAI_API_KEY: 'k', VIBE_MODEL: 'm' });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('No prompt given');
    expect(ran.stderr).toContain('echo "task" | vibe-agent');
  });
});
