/** Issue 19, class 8: no escape sequence from a model, a session file or a config reaches the terminal. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTextRenderer } from '../src/cli/commands/run/render-text.js';
import { safeWriter, sanitizeText } from '../src/cli/display/safe-output.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { cliHome, type CliHome } from './support/cli-process.js';

const HOSTILE = [
  '\x1b]0;pwned title\x07',
  '\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07',
  '\x1b]8;;https://evil.test\x1b\\link\x1b]8;;\x1b\\',
  '\x1b[2J\x1b[H',
  '\x1bP+q544e\x1b\\',
  '\x9b31m',
  'cut off \x1b]0;never terminated',
];
const ESC = /[\x1b\x07\x9b]/;

const homes: CliHome[] = [];
const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const home of homes.splice(0)) home.cleanup();
});

describe('the one sanitiser for terminal writes', () => {
  it('stderr is always sanitised; stdout on a terminal is; a pipe keeps the answer bytes', () => {
    const written: string[] = [];
    const stream = (isTTY: boolean) => ({ isTTY, write: (text: string) => written.push(text) });
    for (const text of HOSTILE) {
      written.length = 0;
      safeWriter(stream(false), true).write(`${text}\n`);
      safeWriter(stream(true)).write(`${text}\n`);
      safeWriter(stream(false)).write(text);
      expect(written[0], JSON.stringify(text)).not.toMatch(ESC);
      expect(written[1], JSON.stringify(text)).not.toMatch(ESC);
      expect(written[2]).toBe(text);
    }
    expect(sanitizeText('\x1b[31mred\x1b[0m\nnext')).toBe('\x1b[31mred\x1b[0m\nnext');
    expect(sanitizeText('\x1b[31mred\x1b[0m', false)).toBe('red');
  });

  it('the text of a tool turn held for stderr loses even the model\'s colours, whatever the chunking', () => {
    const info: string[] = [];
    const render = createTextRenderer({ out: { write: () => true }, info: safeWriter({ isTTY: false, write: (text: string) => info.push(text) }, true), color: false, holdUntilWhole: true });
    for (const text of HOSTILE) for (const char of `${text}\x1b[8mhidden`) render({ type: 'text_delta', text: char } as never);
    render({ type: 'assistant_message', message: { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'x', arguments: '{}' }] } } as never);
    expect(info.join('')).not.toMatch(ESC);
    expect(info.join('')).toContain('hidden');
  });
});

describe('the CLI with stdout redirected', () => {
  it('writes the model text of tool turns, errors and warnings to stderr without escape sequences', async () => {
    const home = cliHome();
    homes.push(home);
    const server = await startChatServer([{ text: `checking ${HOSTILE.join(' ')}`, toolCalls: [{ name: 'calculator', arguments: { expression: '1+1' } }] }, { text: `done ${HOSTILE[0]}` }]);
    servers.push(server);
    mkdirSync(join(home.workspace, '.vibe-agent'));
    writeFileSync(join(home.workspace, '.vibe-agent', 'config.json'), JSON.stringify({ baseUrl: `https://x.test/${HOSTILE[0]}` }));
    const ran = await home.run(['--tools', 'course', `hello ${HOSTILE[1]}`], { OPENAI_API_KEY: 'sk-test-1234567890', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'm' });
    expect(ran.stderr).toContain('checking');
    expect(ran.stderr).toContain('ignored');
    expect(ran.stderr).not.toMatch(ESC);
    // The answer on a pipe is the model's bytes, as asked for with `> file`.
    expect(ran.stdout).toContain(`done ${HOSTILE[0]}`);

    const sessions = await home.run(['sessions']);
    expect(sessions.stdout).toContain('hello');
    expect(sessions.stdout).not.toMatch(ESC);
  });

  it('the subcommands added later (mcp list, skills) write their warnings through it too', async () => {
    const home = cliHome();
    homes.push(home);
    // A cloned repository names things the terminal will show: an MCP server, a skill with broken front matter.
    writeFileSync(join(home.workspace, '.mcp.json'), JSON.stringify({ mcpServers: { [`evil${HOSTILE[0]}`]: { command: 'true' } } }));
    mkdirSync(join(home.workspace, '.vibe-agent', 'skills', 'broken'), { recursive: true });
    writeFileSync(join(home.workspace, '.vibe-agent', 'skills', 'broken', 'SKILL.md'), `---\nname: [${HOSTILE[1]}\n---\nbody\n`);
    const mcp = await home.run(['mcp', 'list']);
    expect(mcp.stderr).toContain('evil');
    expect(mcp.stderr).not.toMatch(ESC);
    const skills = await home.run(['skills']);
    expect(skills.stderr).toContain('SKILL.md');
    expect(skills.stderr).not.toMatch(ESC);
  });

  it('an error message carrying escapes (a provider error body) reaches stderr clean', async () => {
    const home = cliHome();
    homes.push(home);
    const server = await startChatServer([{ kind: 'http_error', status: 400, body: { error: { message: `bad request ${HOSTILE.join(' ')}`, type: 'invalid_request_error' } } }]);
    servers.push(server);
    const ran = await home.run(['--tools', 'course', '--no-session', 'hi'], { OPENAI_API_KEY: 'sk-test-1234567890', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'm' });
    expect(ran.stderr).toContain('bad request');
    expect(ran.stderr).not.toMatch(ESC);
  });
});
