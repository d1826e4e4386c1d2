/**
 * `--plan-file` from the CLI, without a terminal: the plan joins the prompt, what it names runs,
 * and a write or command it does not name is denied by the permission layer, with the reason
 * in the tool result the model reads (even in yolo mode).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { cliHome, type CliHome } from './support/cli-process.js';

const homes: CliHome[] = [];
const servers: ChatServer[] = [];
afterEach(async () => {
  homes.splice(0).forEach((home) => home.cleanup());
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const PLAN = 'Plan: write the notes, then check them.\n\nFiles:\n- `notes.txt`\n\nCommands:\n- `cat notes.txt`\n';

describe('carrying out an approved plan (--plan-file)', () => {
  it('runs what the plan names and denies what it does not, telling the model why', async () => {
    const server = await startChatServer([
      { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'planned\n' } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'other.txt', content: 'not planned\n' } }] },
      { toolCalls: [{ name: 'bash', arguments: { command: 'cat notes.txt' } }] },
      { toolCalls: [{ name: 'bash', arguments: { command: 'rm notes.txt' } }] },
      { text: 'Done as planned; other.txt and the rm were refused.' },
    ]);
    servers.push(server);
    const home = cliHome();
    homes.push(home);
    writeFileSync(join(home.root, 'plan.md'), PLAN);
    const env = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model' };
    const ran = await home.run(['--permission-mode', 'yolo', '--sandbox', 'off', '--tools', 'coding', '--plan-file', join(home.root, 'plan.md'), 'carry it out'], env);
    // Calls outside the plan were refused with nobody to ask: exit 4, and only a rule or the plan covers them.
    expect(ran.code).toBe(4);
    expect(ran.stderr).toContain('outside the approved plan');
    expect(ran.stderr).toContain('"edit(other.txt)"');
    expect(ran.stdout).toContain('Done as planned');

    expect(readFileSync(join(home.workspace, 'notes.txt'), 'utf8')).toBe('planned\n');
    expect(existsSync(join(home.workspace, 'other.txt'))).toBe(false);
    const first = server.requests[0]!.messages.find((message) => message.role === 'user')!.content as string;
    expect(first).toContain('carry it out');
    expect(first).toContain('<plan>\nPlan: write the notes');
    const results = server.requests.at(-1)!.messages.filter((message) => message.role === 'tool').map((message) => String(message.content));
    expect(results[1]).toMatch(/^Denied: the approved plan does not name the file other\.txt \(its Files: notes\.txt\).*no terminal/);
    expect(results[2]).toContain('planned');
    expect(results[3]).toMatch(/^Denied: the approved plan does not name the command "rm notes\.txt" \(its Commands: cat notes\.txt\)/);
    expect(server.violations).toEqual([]);
  });

  it('a missing plan file is a usage error (exit 2) and nothing is sent', async () => {
    const server = await startChatServer([{ text: 'never' }]);
    servers.push(server);
    const home = cliHome();
    homes.push(home);
    const ran = await home.run(['--plan-file', 'no-such-plan.md', 'go'], { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model' });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('--plan-file: cannot read no-such-plan.md: ENOENT');
    expect(server.requests).toHaveLength(0);
  });
});
