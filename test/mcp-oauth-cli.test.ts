/**
 * OAuth for an HTTP MCP server, through the built CLI: the server answers 401, the CLI (no
 * terminal, so no browser) prints the sign-in address, the test plays the browser, and the run
 * gets the server's tools; the next run uses the stored token without a sign-in.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startChatServer } from './support/chat-server.js';
import { spawnCli } from './support/cli-process.js';
import { startMcpOAuthServer } from './support/mcp-oauth-server.js';

const root = mkdtempSync(join(tmpdir(), 'vibe-mcp-oauth-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SIGN_IN = /open this address to sign in: (\S+)/;

/** Plays the browser: opens the authorization URL and follows its redirect to the CLI's loopback port. */
async function approveInBrowser(url: string): Promise<{ status: number; back: string; landed: number; page: string }> {
  const authorize = await fetch(url, { redirect: 'manual' });
  const back = authorize.headers.get('location') ?? '';
  const landed = await fetch(back);
  return { status: authorize.status, back, landed: landed.status, page: await landed.text() };
}

describe('OAuth for an HTTP MCP server in a CLI run', () => {
  it('prints the sign-in address, finishes the sign-in through the loopback redirect, gets the tools; the next run reuses the 0600 token', async () => {
    const oauth = await startMcpOAuthServer();
    const chat = await startChatServer([{ toolCalls: [{ name: 'mcp__secure__add', arguments: { a: 2, b: 40 } }] }, { text: 'It is 42.' }, { toolCalls: [{ name: 'mcp__secure__echo', arguments: { text: 'again' } }] }, { text: 'Echoed.' }]);
    try {
      const workspace = join(root, 'workspace');
      const home = join(root, 'home');
      mkdirSync(workspace, { recursive: true });
      mkdirSync(join(home, '.config', 'vibe-agent'), { recursive: true });
      writeFileSync(join(home, '.config', 'vibe-agent', 'config.json'), JSON.stringify({ mcpServers: { secure: { type: 'http', url: oauth.url } } }));
      // A browser opener that leaves a mark: without a terminal, none may be started.
      const bin = join(root, 'bin');
      mkdirSync(bin);
      writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\necho "$@" > "${join(root, 'browser-opened')}"\n`);
      chmodSync(join(bin, 'xdg-open'), 0o755);
      const env = {
        PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
        HOME: home,
        XDG_CONFIG_HOME: join(home, '.config'),
        XDG_DATA_HOME: join(home, 'data'),
        VIBE_MODEL: 'test-model',
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: chat.url,
        // The first request waits for the sign-in (the test's "browser" is quick, the machine may not be).
        VIBE_MCP_WAIT: '120',
      };

      let visit: Promise<Awaited<ReturnType<typeof approveInBrowser>>> | undefined;
      const first = await spawnCli(['add 2 and 40', '--no-session', '--yes'], {
        cwd: workspace,
        env,
        onSpawn: (child) => {
          let seen = '';
          child.stderr!.on('data', (data) => {
            seen += data;
            const url = SIGN_IN.exec(seen)?.[1];
            if (url && !visit) visit = approveInBrowser(url);
          });
        },
      });
      expect(first.stderr).toMatch(SIGN_IN);
      expect(visit).toBeDefined();
      const browser = await visit!;
      expect(browser.status).toBe(302);
      expect(browser.back).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?code=/);
      expect(browser.landed).toBe(200);
      expect(browser.page).toContain('vibe-agent is authorized');
      expect(first.code).toBe(0);
      expect(existsSync(join(root, 'browser-opened'))).toBe(false);
      expect(first.stdout.trim()).toBe('It is 42.');
      expect(chat.requests[0]!.tools?.map((tool) => tool.function.name)).toContain('mcp__secure__add');
      expect(chat.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', content: '42' });
      expect(oauth.provider.grants).toEqual(['authorization_code']);

      const tokenDir = join(home, 'data', 'vibe-agent', 'mcp-oauth');
      const [file] = readdirSync(tokenDir);
      expect(statSync(join(tokenDir, file!)).mode & 0o777).toBe(0o600);
      const stored = JSON.parse(readFileSync(join(tokenDir, file!), 'utf8'));
      // The token sits in the 0600 file only: never in what the CLI printed.
      expect(first.stderr + first.stdout).not.toContain(stored.tokens.access_token);

      const second = await spawnCli(['echo again', '--no-session', '--yes'], { cwd: workspace, env });
      expect(second.code).toBe(0);
      expect(second.stderr).not.toMatch(SIGN_IN);
      expect(second.stdout.trim()).toBe('Echoed.');
      expect(chat.requests[3]!.messages.at(-1)).toMatchObject({ role: 'tool', content: 'echo: again' });
      expect(oauth.provider.grants).toEqual(['authorization_code']);
      expect(oauth.provider.registered).toHaveLength(1);
    } finally {
      await chat.close();
      await oauth.close();
    }
  });
});
