import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../src/cli/parse-command-line.js';
import { parseAddress } from '../src/cli/commands/mcp/mcp-serve-command.js';
import { CLI } from './support/cli-process.js';

const TOKEN = 'test-token-for-mcp-http-0123456789';
const root = mkdtempSync(join(tmpdir(), 'vibe-mcp-http-'));
const children: ChildProcess[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGTERM');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The built CLI serving over HTTP on a free loopback port; resolves with the URL it prints. */
async function serveHttp(...flags: string[]): Promise<{ url: string; child: ChildProcess; workspace: string }> {
  const dir = mkdtempSync(join(root, 'case-'));
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'notes.txt'), 'served over http\n');
  const home = join(dir, 'home');
  const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, 'data'), VIBE_MCP_TOKEN: TOKEN };
  const child = spawn(process.execPath, [CLI, 'mcp', 'serve', '--http', '0', ...flags], { cwd: workspace, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /serving MCP \(streamable HTTP\) at (\S+)/.exec(stderr);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code} before serving: ${stderr}`)));
  });
  return { url, child, workspace };
}

async function connect(url: string, headers: Record<string, string> = { Authorization: `Bearer ${TOKEN}` }): Promise<Client> {
  const client = new Client({ name: 'http-test-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

/** A raw POST, with whatever Host and Origin headers a browser or an attacker would send. */
function post(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(INITIALIZE);
  });
}

describe('vibe-agent mcp serve --http', () => {
  it('serves on loopback; the SDK client lists the tools and calls bash with the bearer token', async () => {
    const { url, workspace, child } = await serveHttp('--yes');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connect(url);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['bash', 'read_file', 'read_output']));
    const ran = await client.callTool({ name: 'bash', arguments: { command: 'cat notes.txt; pwd' } });
    expect(ran.isError).toBe(false);
    const text = (ran.content as Array<{ text: string }>).map((block) => block.text).join('');
    expect(text).toContain('served over http');
    expect(text).toContain(workspace);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('refuses a request without the token (401), from a foreign Origin or Host (403), and a GET (405)', async () => {
    const { url } = await serveHttp();
    const port = new URL(url).port;
    const auth = { authorization: `Bearer ${TOKEN}` };
    const missing = await post(url, {});
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
    expect((await post(url, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await post(url, { ...auth, origin: 'https://evil.example' })).status).toBe(403);
    expect((await post(url, { ...auth, host: `evil.example:${port}` })).status).toBe(403);
    expect((await post(url, { ...auth, origin: `http://localhost:5173` })).status).toBe(200);
    expect((await post(url, auth)).status).toBe(200);
    await expect(connect(url, {})).rejects.toThrow();
    const get = await new Promise<number>((resolve, reject) => request(url, { headers: auth }, (res) => resolve(res.statusCode ?? 0)).on('error', reject).end());
    expect(get).toBe(405);
  });

  it('--http belongs to mcp serve, and takes PORT or HOST:PORT', () => {
    expect(parseCliArgs(['mcp', 'serve', '--http', '8765'])).toMatchObject({ command: 'mcp', mcpHttp: '8765' });
    expect(() => parseCliArgs(['mcp', 'list', '--http', '1'])).toThrow('--http only applies to "vibe-agent mcp serve".');
    expect(() => parseCliArgs(['task', '--http', '1'])).toThrow('--http only applies to "vibe-agent mcp"; see vibe-agent mcp --help.');
    expect(parseAddress('8765')).toEqual({ host: '127.0.0.1', port: 8765 });
    expect(parseAddress('0.0.0.0:80')).toEqual({ host: '0.0.0.0', port: 80 });
    expect(parseAddress('[::1]:9000')).toEqual({ host: '::1', port: 9000 });
    for (const bad of ['nope', '70000', 'host:', ':80']) expect(() => parseAddress(bad), bad).toThrow('--http takes PORT or HOST:PORT');
  });
});
