import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer, type ServerStep } from './support/chat-server.js';
import { CLI_SESSION_TIMEOUT_MS, cliHome, type CliHome } from './support/cli-process.js';

const servers: ChatServer[] = [];
const homes: CliHome[] = [];
const others: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const server of others.splice(0)) server.close();
  for (const home of homes.splice(0)) home.cleanup();
});

async function setup(script: ServerStep[], extraEnv: Record<string, string> = {}) {
  const server = await startChatServer(script);
  servers.push(server);
  const home = cliHome();
  homes.push(home);
  const env = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model', ...extraEnv };
  return { server, home, run: (args: string[]) => home.run(args, env) };
}

const user = (content: string) => ({ role: 'user', content });

describe('sessions from the CLI', { timeout: CLI_SESSION_TIMEOUT_MS }, () => {
  it('every run is saved; `sessions` lists them newest first; --resume takes an id prefix', async () => {
    const { server, home, run } = await setup([{ text: 'answer one' }, { text: 'answer two' }, { text: 'answer three' }]);
    expect((await run(['the first task'])).code).toBe(0);
    expect((await run(['the second task'])).code).toBe(0);
    const files = home.sessionFiles();
    expect(files).toHaveLength(2);
    const idOf = (prompt: string) => files.find((name) => readFileSync(home.sessionPath(name), 'utf8').includes(prompt))!.replace('.jsonl', '');
    const [olderId, newerId] = [idOf('the first task'), idOf('the second task')];

    const listed = await run(['sessions']);
    expect(listed.code).toBe(0);
    const rows = listed.stdout.split('\n').filter((line) => /^\d{4}-/.test(line));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain(newerId);
    expect(rows[0]).toContain('the second task');
    expect(rows[1]).toContain(olderId);
    expect(rows[1]).toMatch(/\s1\s+[\d.]+k?\s+-\s+the first task/);

    let differ = 0;
    while (olderId[differ] === newerId[differ]) differ++;
    const prefix = olderId.slice(0, Math.max(8, differ + 1)); // the shortest unambiguous prefix
    const resumed = await run(['--resume', prefix, 'and then?']);
    expect(resumed.code).toBe(0);
    expect(server.requests[2]!.messages).toEqual([...server.requests[0]!.messages, { role: 'assistant', content: 'answer one' }, user('and then?')]);
    expect(home.sessionFiles()).toHaveLength(2);
  });

  it('--resume without an id lists the sessions and exits 2 when nobody can choose; bad ids and --continue without sessions exit 2', async () => {
    const { home, run } = await setup([{ text: 'ok' }]);
    const none = await run(['--continue', 'go on']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('No saved session to continue');
    expect((await run(['task'])).code).toBe(0);
    const id = home.sessionFiles()[0]!.replace('.jsonl', '');

    const pick = await run(['--resume', 'go on']);
    expect(pick.code).toBe(2);
    expect(pick.stderr).toContain(id);
    expect(pick.stderr).toContain(`vibe-agent --resume ${id}`);
    const unknown = await run(['--resume', '19990101', 'go on']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No session in this workspace has an id starting with "19990101"');
    expect((await run(['--no-session', '--continue', 'x'])).code).toBe(2);
  });

  it('--no-session saves nothing', async () => {
    const { home, run } = await setup([{ text: 'ok' }]);
    expect((await run(['--no-session', 'task'])).code).toBe(0);
    expect(home.sessionFiles()).toEqual([]);
  });

  it('resume applies a compaction record: the next request carries the summary instead of the replaced turns', async () => {
    const { server, home, run } = await setup([{ text: 'one' }, { text: 'after compaction' }]);
    expect((await run(['an old task'])).code).toBe(0);
    const path = home.sessionPath(home.sessionFiles()[0]!);
    const summary = { role: 'user', content: '[Summary of earlier turns] The user asked an old task; the answer was one.' };
    appendFileSync(path, `${JSON.stringify({ type: 'compaction', turn: 2, tokensBefore: 50, tokensAfter: 20, summary: summary.content, dropped: 2, message: summary, replaced: { from: 1, count: 2 } })}\n`);

    expect((await run(['--continue', 'new task'])).code).toBe(0);
    expect(server.requests[1]!.messages).toEqual([server.requests[0]!.messages[0], summary, user('new task')]);
  });

  it('never writes a secret from the environment or --api-key, even when a tool echoes it', async () => {
    const secret = 'sk-deploy-0123456789abcdef';
    const flagKey = 'sk-flag-key-987654321';
    const echo = createServer((_req, res) => res.end(`the deploy key is ${secret}`));
    others.push(echo);
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/key`;
    const { home, run } = await setup([{ toolCalls: [{ name: 'fetch_url', arguments: { url } }] }, { text: `Found it: ${secret}` }], { DEPLOY_SECRET: secret });

    const ran = await run(['--api-key', flagKey, '--yes', '--fetch-private', '127.0.0.1', `look up ${secret} with ${flagKey}`]);
    expect(ran.code).toBe(0);
    // Printed redacted too (issue 34: no key in any file, stream or output the CLI writes).
    expect(ran.stdout).toBe('Found it: [redacted]\n');
    expect(ran.stdout + ran.stderr).not.toContain(secret);
    const text = readFileSync(home.sessionPath(home.sessionFiles()[0]!), 'utf8');
    expect(text).not.toContain(secret);
    expect(text).not.toContain(flagKey);
    expect(text).toContain('the deploy key is [redacted]');
    expect(text).toContain('Found it: [redacted]');
    expect(text).toContain('look up [redacted] with [redacted]');
  });
});

describe('memory from the CLI', { timeout: CLI_SESSION_TIMEOUT_MS }, () => {
  it('AGENTS.md and remembered facts reach the system prompt of later sessions, byte-identical run to run', async () => {
    const { server, home, run } = await setup([
      { toolCalls: [{ name: 'remember', arguments: { fact: 'The build uses make, not npm.' } }] },
      { text: 'Noted.' },
      { text: 'Use make.' },
      { text: 'Again make.' },
    ]);
    writeFileSync(join(home.workspace, 'AGENTS.md'), 'Always answer in one line.\n');
    expect((await run(['remember how we build', '--permission-mode', 'auto-edit'])).code).toBe(0);
    const firstSystem = server.requests[0]!.messages[0]!;
    expect(firstSystem).toMatchObject({ role: 'system', content: expect.stringContaining('Always answer in one line.') });
    expect(String(firstSystem.content)).not.toContain('make');
    expect(readFileSync(join(home.workspace, '.vibe-agent', 'memory.md'), 'utf8')).toContain('- The build uses make, not npm.\n');

    expect((await run(['how do we build?'])).code).toBe(0);
    expect((await run(['and now?'])).code).toBe(0);
    const later = String(server.requests[2]!.messages[0]!.content);
    expect(later).toContain('Always answer in one line.');
    expect(later).toContain('- The build uses make, not npm.');
    expect(server.requests[3]!.messages[0]!.content).toBe(later);
  });

  it('`memory` shows both files with their paths; `memory forget` removes a fact; `memory edit` prints the path without a terminal', async () => {
    const { home, run } = await setup([]);
    mkdirSync(join(home.workspace, '.vibe-agent'));
    writeFileSync(join(home.workspace, '.vibe-agent', 'memory.md'), '# m\n\n- Use tabs\n- Deploy on Fridays\n');
    writeFileSync(join(home.workspace, 'AGENTS.md'), 'rules\n');

    const shown = await run(['memory']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`Project memory: ${join(home.workspace, '.vibe-agent', 'memory.md')}`);
    expect(shown.stdout).toContain('- Deploy on Fridays');
    expect(shown.stdout).toMatch(/User memory: .*config\/vibe-agent\/memory\.md \(empty\)/);
    expect(shown.stdout).toContain(join(home.workspace, 'AGENTS.md'));

    const forgot = await run(['memory', 'forget', 'fridays']);
    expect(forgot.code).toBe(0);
    expect(forgot.stdout).toContain('Forgot 1 fact');
    expect(readFileSync(join(home.workspace, '.vibe-agent', 'memory.md'), 'utf8')).toBe('# m\n\n- Use tabs\n');
    const unmatched = await run(['memory', 'forget', 'nothing-like-this']);
    expect(unmatched.code).toBe(1);
    expect(unmatched.stderr).toBe(`vibe-agent: no memory entry matches "nothing-like-this" in ${join(home.workspace, '.vibe-agent', 'memory.md')}; nothing was forgotten.\n`);
    expect(readFileSync(join(home.workspace, '.vibe-agent', 'memory.md'), 'utf8')).toBe('# m\n\n- Use tabs\n');

    const edit = await run(['memory', 'edit', '--user']);
    expect(edit.code).toBe(0);
    expect(edit.stdout.trim()).toBe(join(home.env.XDG_CONFIG_HOME, 'vibe-agent', 'memory.md'));
    expect(existsSync(edit.stdout.trim())).toBe(false);
    expect((await run(['memory', 'bogus'])).code).toBe(2);
  });
});
