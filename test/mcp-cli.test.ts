import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { serverTrustRequest } from '../src/trust/admit-project-server.js';
import { rememberTrust } from '../src/trust/decide-trust.js';
import { TrustStore } from '../src/trust/trust-store.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { spawnCli } from './support/cli-process.js';

const SCRIPT = join(import.meta.dirname, 'support', 'mcp-test-server.mjs');
const root = mkdtempSync(join(tmpdir(), 'vibe-mcp-cli-'));
const chats: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(chats.splice(0).map((server) => server.close()));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

let count = 0;
/** A fresh home and workspace, with these files written (paths relative to the root). */
function setup(files: Record<string, unknown>) {
  const dir = join(root, `case-${++count}`);
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace, { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), typeof content === 'string' ? content : JSON.stringify(content));
  }
  const env = { HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'home', '.config'), XDG_DATA_HOME: join(dir, 'home', 'data'), VIBE_MODEL: 'test-model', OPENAI_API_KEY: 'sk-test' };
  return { dir, workspace, env };
}

const server = (...args: string[]) => ({ command: process.execPath, args: [SCRIPT, ...args] });
const toolNames = (chat: ChatServer, n: number) => (chat.requests[n]?.tools ?? []).map((tool) => tool.function.name).filter((name) => name.startsWith('mcp__'));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('MCP servers in a CLI run', () => {
  it("the model calls a user server's tool; the server process is gone when the CLI has exited", async () => {
    const chat = await startChatServer([{ toolCalls: [{ name: 'mcp__notes__add', arguments: { a: 2, b: 40 } }] }, { text: 'It is 42.' }]);
    chats.push(chat);
    const pidFile = join(root, `pids-${count + 1}`);
    const { workspace, env } = setup({ 'home/.config/vibe-agent/config.json': { mcpServers: { notes: server('--pid-file', pidFile) } } });
    const ran = await spawnCli(['add them', '--no-session', '--yes', '--tools', 'read_file'], { cwd: workspace, env: { ...env, OPENAI_BASE_URL: chat.url } });
    expect(ran.stdout.trim()).toBe('It is 42.');
    expect(toolNames(chat, 0)).toContain('mcp__notes__add');
    expect(chat.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', content: '42' });
    const pids = readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
    expect(pids.filter(alive)).toEqual([]);
  });

  it('a run with no MCP server configured loads none of the SDK; one with a server does', async () => {
    const register = join(import.meta.dirname, 'fixtures', 'module-log', 'register.mjs');
    const sdkFilesLoaded = async (files: Record<string, unknown>) => {
      const chat = await startChatServer([{ text: 'fine' }]);
      chats.push(chat);
      const { dir, workspace, env } = setup(files);
      const log = join(dir, 'modules.txt');
      const ran = await spawnCli(['hi', '--no-session', '--yes'], { cwd: workspace, env: { ...env, OPENAI_BASE_URL: chat.url, NODE_OPTIONS: `--import ${register}`, MODULE_LOG: log } });
      expect(ran.code, ran.stderr).toBe(0);
      const loaded = [...new Set(readFileSync(log, 'utf8').split('\n'))].filter((url) => url.startsWith('file:') && url.includes('/dist/cli/'));
      expect(loaded.length).toBeGreaterThan(1);
      return loaded.filter((url) => readFileSync(new URL(url), 'utf8').includes('node_modules/@modelcontextprotocol/sdk/'));
    };
    expect(await sdkFilesLoaded({})).toEqual([]);
    expect((await sdkFilesLoaded({ 'home/.config/vibe-agent/config.json': { mcpServers: { notes: server() } } })).length).toBeGreaterThan(0);
  });

  it('a server that changes its tools mid-run: the offer stays as it was for the run (the cached prefix), a call to the new tool still runs, the system prompt unchanged', async () => {
    const chat = await startChatServer([{ toolCalls: [{ name: 'mcp__notes__grow', arguments: {} }] }, { toolCalls: [{ name: 'mcp__notes__shout', arguments: { text: 'done' } }] }, { text: 'Shouted.' }]);
    chats.push(chat);
    const { workspace, env } = setup({ 'home/.config/vibe-agent/config.json': { mcpServers: { notes: server('--growable') } } });
    const ran = await spawnCli(['grow it', '--no-session', '--yes', '--tools', 'read_file'], { cwd: workspace, env: { ...env, OPENAI_BASE_URL: chat.url } });
    expect(ran.stdout.trim()).toBe('Shouted.');
    expect(toolNames(chat, 0)).toContain('mcp__notes__hang');
    expect(toolNames(chat, 0)).not.toContain('mcp__notes__shout');
    // The new list joins the offer at the next task or rewrite point (docs/context.md), not mid-run.
    expect(toolNames(chat, 1)).toEqual(toolNames(chat, 0));
    expect(toolNames(chat, 2)).toEqual(toolNames(chat, 0));
    expect(chat.requests[2]!.messages.at(-1)).toMatchObject({ role: 'tool', content: 'DONE' });
    const system = (n: number) => JSON.stringify(chat.requests[n]!.messages[0]);
    expect(chat.requests[0]!.messages[0]).toMatchObject({ role: 'system' });
    expect(system(1)).toBe(system(0));
    expect(system(2)).toBe(system(0));
  });

  it('one-shot "/mcp__server__prompt args" sends the server\'s prompt; mcp list shows prompts and resources; the model reads a resource', async () => {
    const chat = await startChatServer([{ toolCalls: [{ name: 'read_mcp_resource', arguments: { server: 'notes', uri: 'notes://readme' } }] }, { text: 'Reviewed.' }]);
    chats.push(chat);
    const { workspace, env } = setup({ 'home/.config/vibe-agent/config.json': { mcpServers: { notes: server() } } });
    const ran = await spawnCli(['/mcp__notes__review src/a.ts "error handling"', '--no-session'], { cwd: workspace, env: { ...env, OPENAI_BASE_URL: chat.url } });
    expect(ran.stdout.trim()).toBe('Reviewed.');
    expect(chat.requests[0]!.messages.at(-1)).toMatchObject({ role: 'user', content: 'Review src/a.ts, focusing on error handling.' });
    // Category read: no --yes needed, no terminal to ask on.
    expect(chat.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', content: '[resource notes://readme]\nNotes are kept one per line.' });

    const missing = await spawnCli(['/mcp__notes__review', '--no-session'], { cwd: workspace, env: { ...env, OPENAI_BASE_URL: chat.url } });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('/mcp__notes__review: missing file; usage: review <file> [focus]');
    expect(chat.requests).toHaveLength(2);

    const listed = await spawnCli(['mcp', 'list'], { cwd: workspace, env });
    expect(listed.stdout).toContain('Prompts (slash commands):\n  /mcp__notes__review <file> [focus]  Asks for a review of one file.');
    expect(listed.stdout).toContain('Resources (the model reads them with read_mcp_resource):\n  notes  notes://readme  readme (text/plain)');
  });

  it('project servers (.mcp.json, Gemini CLI, Codex) are skipped without a terminal, with a warning naming the flag; --trust-project-mcp starts them', async () => {
    const { workspace, env } = setup({
      'workspace/.mcp.json': { mcpServers: { claude: server() } },
      'workspace/.gemini/settings.json': { mcpServers: { gemini: server() } },
      'workspace/.codex/config.toml': `[mcp_servers.codex]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(SCRIPT)}]\n`,
    });
    const chat = await startChatServer([{ text: 'first' }, { text: 'second' }]);
    chats.push(chat);
    const skipped = await spawnCli(['hi', '--no-session'], { cwd: workspace, env: { ...env, OPENAI_BASE_URL: chat.url } });
    expect(skipped.stdout.trim()).toBe('first');
    expect(skipped.stderr).toContain('project MCP servers "claude"');
    expect(skipped.stderr).toContain('--trust-project-mcp');
    expect(toolNames(chat, 0)).toEqual([]);

    // Three servers starting at once on a loaded machine can take longer than the default 5 s wait.
    const trusted = await spawnCli(['hi', '--no-session', '--trust-project-mcp'], { cwd: workspace, env: { ...env, OPENAI_BASE_URL: chat.url, VIBE_MCP_WAIT: '60' } });
    expect(trusted.stdout.trim()).toBe('second');
    expect(toolNames(chat, 1)).toEqual(expect.arrayContaining(['mcp__claude__echo', 'mcp__gemini__echo', 'mcp__codex__echo']));
  });

  it('an approval remembered for this workspace starts the server; a changed command is not covered by it', async () => {
    const { workspace, env } = setup({ 'workspace/.mcp.json': { mcpServers: { approved: server(), changed: server() } } });
    const store = new TrustStore(workspace, env);
    const mcpJson = join(workspace, '.mcp.json');
    const origin = { scope: 'project', file: mcpJson, format: 'claude-code' } as const;
    rememberTrust(store, serverTrustRequest({ name: 'approved', origin, spec: { transport: 'stdio', command: process.execPath, args: [SCRIPT], env: {} } }), true);
    rememberTrust(store, serverTrustRequest({ name: 'changed', origin, spec: { transport: 'stdio', command: process.execPath, args: [SCRIPT, '--other'], env: {} } }), true);
    const ran = await spawnCli(['mcp', 'list'], { cwd: workspace, env });
    expect(ran.stdout).toMatch(/approved\s+ready\s+7 /);
    expect(ran.stdout).toMatch(/changed\s+not approved\s+0 /);
    expect(ran.stdout).toContain(`project · Claude Code .mcp.json · ${mcpJson}`);
  });

  it('mcp list shows state, tools, start time and origin of each server, the user ones from Gemini CLI and Codex too', async () => {
    const { workspace, env } = setup({
      'home/.config/vibe-agent/config.json': { mcpServers: { ours: server(), broken: server('--fail'), remote: { type: 'http', url: 'http://127.0.0.1:9/mcp' } } },
      'home/.gemini/settings.json': { mcpServers: { gem: server() }, theme: 'dark' },
      'home/.codex/config.toml': `model = "o3"\n[mcp_servers.cdx]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(SCRIPT)}]\n[mcp_servers.off]\ncommand = "nothing"\nenabled = false\n`,
    });
    const ran = await spawnCli(['mcp', 'list'], { cwd: workspace, env });
    expect(ran.code).toBe(1);
    const lines = ran.stdout.split('\n');
    expect(lines[0]).toMatch(/^SERVER\s+STATE\s+TOOLS\s+STARTED IN\s+AT \(UTC\)\s+FROM$/);
    expect(lines.find((line) => line.startsWith('ours'))).toMatch(/^ours\s+ready\s+7\s+\d+ ms\s+\d\d:\d\d:\d\d\s+user · vibe-agent config · ~\/.config\/vibe-agent\/config.json$/);
    expect(lines.find((line) => line.startsWith('gem'))).toMatch(/ready\s+7 .*user · Gemini CLI settings · ~\/.gemini\/settings.json$/);
    expect(lines.find((line) => line.startsWith('cdx'))).toMatch(/ready\s+7 .*user · Codex config.toml · ~\/.codex\/config.toml$/);
    expect(lines.find((line) => line.startsWith('broken'))).toMatch(/^broken\s+failed\s+0/);
    expect(ran.stdout).toContain('broken: MCP error -32000: Connection closed (stderr: cannot open the database)');
    expect(lines.find((line) => line.startsWith('remote'))).toMatch(/^remote\s+failed/);
    expect(ran.stdout).not.toContain('off');
  });
});
