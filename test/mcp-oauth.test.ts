import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { McpServers } from '../src/mcp/mcp-servers.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { startMcpOAuthServer } from './support/mcp-oauth-server.js';

const dataDir = mkdtempSync(join(tmpdir(), 'vibe-mcp-oauth-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Plays the browser: opens the authorization URL, follows its redirect to our loopback port. */
async function approveInBrowser(url: string): Promise<string> {
  const authorize = await fetch(url, { redirect: 'manual' });
  const back = authorize.headers.get('location')!;
  const landed = await fetch(back);
  return `${authorize.status} → ${new URL(back).origin} ${landed.status} ${await landed.text()}`;
}

describe('OAuth 2.1 for an HTTP MCP server', () => {
  it('registers, authorizes with PKCE through the loopback redirect, stores the tokens 0600, and refreshes an expired one', async () => {
    const server = await startMcpOAuthServer();
    const visits: Array<Promise<string>> = [];
    const registry = new ToolRegistry();
    const warnings: string[] = [];
    const servers = new McpServers({ registry, warn: (text) => warnings.push(text), oauth: { dataDir, openBrowser: false, announce: (url) => visits.push(approveInBrowser(url)) } });
    try {
      servers.start({ name: 'secure', spec: { transport: 'http', url: server.url, headers: {} }, origin: { scope: 'user', file: 'config.json', format: 'vibe-agent' } }, true);
      await servers.settled(60_000);
      expect(warnings).toEqual([]);
      expect(visits).toHaveLength(1);
      expect(await visits[0]).toMatch(/^302 → http:\/\/127\.0\.0\.1:\d+ 200 vibe-agent is authorized/);
      expect(server.provider.registered).toHaveLength(1);
      expect(server.provider.registered[0]!.redirect_uris[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      expect(server.provider.grants).toEqual(['authorization_code']);
      expect(await registry.invoke({ id: '1', name: 'mcp__secure__add', arguments: '{"a":1,"b":2}' })).toMatchObject({ status: 'ok', content: '3' });

      const [file] = readdirSync(join(dataDir, 'mcp-oauth'));
      const path = join(dataDir, 'mcp-oauth', file!);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      const stored = JSON.parse(readFileSync(path, 'utf8'));
      expect(stored.tokens).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String) });

      server.provider.expireAccessTokens();
      expect(await registry.invoke({ id: '2', name: 'mcp__secure__add', arguments: '{"a":2,"b":2}' })).toMatchObject({ status: 'ok', content: '4' });
      expect(server.provider.grants).toEqual(['authorization_code', 'refresh_token']);
      expect(visits).toHaveLength(1);
      expect(JSON.parse(readFileSync(path, 'utf8')).tokens.access_token).not.toBe(stored.tokens.access_token);
    } finally {
      await servers.close();
      await server.close();
    }
  });
});
