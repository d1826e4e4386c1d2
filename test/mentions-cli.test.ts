import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { CLI, cliHome, CLI_SESSION_TIMEOUT_MS } from './support/cli-process.js';

const home = cliHome();
const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(() => home.cleanup());

const src = join(home.workspace, 'src');
mkdirSync(join(src, 'deep'), { recursive: true });
writeFileSync(join(src, 'a.ts'), 'export const a = 1;\nexport const b = 2;\n');
writeFileSync(join(src, 'a.test.ts'), 'test a\n');
writeFileSync(join(src, 'deep', 'b.test.ts'), 'test b\n');
writeFileSync(join(home.workspace, 'my notes.md'), 'spaced name\n');
writeFileSync(join(home.workspace, 'long.txt'), 'x\n'.repeat(3000));
writeFileSync(join(home.workspace, '.env'), 'TOKEN=hunter2\n');
writeFileSync(join(home.root, 'outside.txt'), 'not yours\n');

async function ask(prompt: string, extra: string[] = []): Promise<{ code: number | null; stderr: string; user: string | undefined; server: ChatServer }> {
  const server = await startChatServer([{ text: 'ok' }]);
  servers.push(server);
  const ran = await home.run([...extra, prompt], { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model' });
  const user = server.requests[0]?.messages.filter((m) => m.role === 'user').at(-1)?.content;
  return { code: ran.code, stderr: ran.stderr, user: user === undefined ? undefined : String(user), server };
}

describe('@ mentions in a one-shot prompt', () => {
  it('@src/a.ts attaches the numbered text after the words, which stay as typed', async () => {
    const { code, stderr, user } = await ask('explain @src/a.ts, please', ['--no-session']);
    expect(code).toBe(0);
    expect(stderr).toContain('attached @src/a.ts (2 lines, 40 bytes)');
    expect(user).toBe(
      'explain @src/a.ts, please\n\n<attachments>\n<file path="src/a.ts" via="read_file">\n     1\texport const a = 1;\n     2\texport const b = 2;\n[src/a.ts: 2 lines, 40 bytes. Showing lines 1-2.]\n</file>\n</attachments>',
    );
  }, CLI_SESSION_TIMEOUT_MS);

  it('an e-mail address, an unknown path and an escaped @ stay text', async () => {
    const prompt = 'mail me@example.com about @nosuch.ts and \\@src/a.ts';
    const { code, user, stderr } = await ask(prompt, ['--no-session']);
    expect(code).toBe(0);
    expect(user).toBe(prompt);
    expect(stderr).not.toContain('attached');
  }, CLI_SESSION_TIMEOUT_MS);

  it('a quoted path with a space, a folder as a listing, a glob as its files', async () => {
    const { code, user } = await ask('see @"my notes.md" and @src/ and @src/**/*.test.ts', ['--no-session']);
    expect(code).toBe(0);
    expect(user).toContain('<file path="my notes.md" via="read_file">\n     1\tspaced name\n');
    expect(user).toContain('<folder path="src/" via="list_files">\nsrc/a.test.ts\nsrc/a.ts\nsrc/deep/b.test.ts\n</folder>');
    expect(user).toContain('<glob path="src/**/*.test.ts" via="list_files">\nsrc/a.test.ts\nsrc/deep/b.test.ts\n</glob>');
    expect(user).toContain('<file path="src/deep/b.test.ts" via="read_file">\n     1\ttest b\n');
  }, CLI_SESSION_TIMEOUT_MS);

  it('a long file is capped as read_file caps it: its line count and the offset to read on', async () => {
    const { code, user, stderr } = await ask('summarise @long.txt', ['--no-session']);
    expect(code).toBe(0);
    expect(stderr).toContain('attached @long.txt (3000 lines, 6,000 bytes (5.9 KB))');
    expect(user).toContain('  2000\tx\n[long.txt: 3000 lines, 6,000 bytes (5.9 KB). Showing lines 1-2000; to read further, use offset=2001.]\n</file>');
    expect(user).not.toContain('2001\tx');
  }, CLI_SESSION_TIMEOUT_MS);

  it('@.env is refused as read_file refuses it, and nothing is sent', async () => {
    const { code, stderr, server } = await ask('what is in @.env', ['--no-session']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/@\.env: .*looks like a secrets file.*Nothing was sent/);
    expect(server.requests).toHaveLength(0);
  }, CLI_SESSION_TIMEOUT_MS);

  it('a path outside the workspace is refused, and nothing is sent', async () => {
    const { code, stderr, server } = await ask('read @../outside.txt', ['--no-session']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/@\.\.\/outside\.txt: .*outside the workspace/);
    expect(server.requests).toHaveLength(0);
  }, CLI_SESSION_TIMEOUT_MS);

  it('a read deny rule holds for a mention', async () => {
    const configDir = join(home.env.XDG_CONFIG_HOME, 'vibe-agent');
    mkdirSync(configDir, { recursive: true });
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ permissions: { deny: ['read_file(src/a.ts)'] } }));
    try {
      const { code, stderr, server } = await ask('explain @src/a.ts', ['--no-session']);
      expect(code).toBe(2);
      expect(stderr).toMatch(/@src\/a\.ts: Denied: /);
      expect(server.requests).toHaveLength(0);
    } finally {
      writeFileSync(join(configDir, 'config.json'), '{}');
    }
  }, CLI_SESSION_TIMEOUT_MS);

  it('the session keeps the message as sent: a continued run sends the same bytes again', async () => {
    const first = await ask('explain @src/a.ts');
    expect(first.code).toBe(0);
    writeFileSync(join(src, 'a.ts'), 'export const changed = true;\n');
    const second = await ask('and now?', ['--continue']);
    expect(second.code).toBe(0);
    const replayed = second.server.requests[0]!.messages.filter((m) => m.role === 'user');
    expect(String(replayed[0]!.content)).toBe(first.user);
    expect(readFileSync(home.sessionPath(home.sessionFiles().at(-1)!), 'utf8')).toContain('export const a = 1;');
  }, CLI_SESSION_TIMEOUT_MS);
});

describe('@ mentions in a piped prompt', () => {
  it('a prompt on stdin attaches the file it mentions', async () => {
    const server = await startChatServer([{ text: 'ok' }]);
    servers.push(server);
    const code = await new Promise<number | null>((done) => {
      const child = spawn(process.execPath, [CLI, '--no-session'], { cwd: home.workspace, env: { ...home.env, OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'm' }, stdio: ['pipe', 'ignore', 'ignore'] });
      child.on('close', done);
      child.stdin.end('what does @src/a.test.ts test?\n');
    });
    expect(code).toBe(0);
    expect(server.requests[0]!.messages.at(-1)!.content).toBe('what does @src/a.test.ts test?\n\n<attachments>\n<file path="src/a.test.ts" via="read_file">\n     1\ttest a\n[src/a.test.ts: 1 line, 7 bytes. Showing lines 1-1.]\n</file>\n</attachments>');
  }, CLI_SESSION_TIMEOUT_MS);
});
