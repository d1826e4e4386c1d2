import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServers } from '../src/mcp/mcp-servers.js';
import type { ServerEntry, ServerSpec } from '../src/mcp/server-spec.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { startMcpHttpServer, type McpHttpServer } from './support/mcp-http-server.js';

const SCRIPT = join(import.meta.dirname, 'support', 'mcp-test-server.mjs');
const origin = { scope: 'user', file: '/home/u/.config/vibe-agent/config.json', format: 'vibe-agent' } as const;
const stdio = (...args: string[]): ServerSpec => ({ transport: 'stdio', command: process.execPath, args: [SCRIPT, ...args], env: {} });

const open: McpServers[] = [];
const http: McpHttpServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((servers) => servers.close()));
  await Promise.all(http.splice(0).map((server) => server.close()));
});

function serversWith(entries: Array<{ name: string; spec: ServerSpec; trusted?: boolean }>, registryOptions = {}) {
  const registry = new ToolRegistry([], registryOptions);
  const warnings: string[] = [];
  const servers = new McpServers({ registry, warn: (message) => warnings.push(message) });
  open.push(servers);
  for (const { name, spec, trusted } of entries) servers.start({ name, spec, origin } satisfies ServerEntry, trusted ?? true);
  return { registry, servers, warnings };
}

const call = (registry: ToolRegistry, name: string, args: unknown = {}) => registry.invoke({ id: 'c1', name, arguments: JSON.stringify(args) });

describe('an MCP server over stdio', () => {
  it("lists its tools as mcp__<server>__<tool> with the server's schema, and calls them", async () => {
    const { registry, servers } = serversWith([{ name: 'notes.app', spec: stdio() }]);
    await servers.settled(60_000);
    // read_mcp_resource joins with the first server that offers resources.
    expect(registry.names()).toEqual([...['echo', 'add', 'big', 'hang', 'crash', 'picture', 'fails'].map((tool) => `mcp__notes_app__${tool}`), 'read_mcp_resource']);
    expect(servers.toolOrigin('mcp__notes_app__echo')).toEqual({ server: 'notes.app', tool: 'echo' });
    const add = registry.get('mcp__notes_app__add')!;
    expect(add.schema.parameters).toMatchObject({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] });
    expect(add.permission).toMatchObject({ category: 'execute', aliases: ['mcp__notes_app'] });
    expect(registry.get('mcp__notes_app__echo')!.permission.category).toBe('read');

    expect(await call(registry, 'mcp__notes_app__add', { a: 2, b: 3 })).toMatchObject({ status: 'ok', content: '5' });
    expect(await call(registry, 'mcp__notes_app__fails')).toMatchObject({ status: 'error', content: 'it went wrong' });
    const picture = await call(registry, 'mcp__notes_app__picture');
    expect(picture.content).toBe('[image: image/png, 16 bytes, not shown]\n[resource file:///notes.txt]\nthe notes');
    // The server validates its own arguments; its complaint reaches the model as an error.
    expect(await call(registry, 'mcp__notes_app__add', { a: 'two' })).toMatchObject({ status: 'error' });
    expect(servers.status()).toEqual([expect.objectContaining({ name: 'notes.app', state: 'ready', tools: 7, startMs: expect.any(Number) })]);
  });

  it("believes readOnlyHint only for a server the user configured, not a project's", async () => {
    const { registry, servers } = serversWith([{ name: 'repo', spec: stdio(), trusted: false }]);
    await servers.settled(60_000);
    expect(registry.get('mcp__repo__echo')).toMatchObject({ readOnly: false, needsApproval: true, permission: { category: 'execute' } });
  });

  it("a hanging call times out through the registry, by the server entry's own time limit", async () => {
    const { registry, servers } = serversWith([{ name: 's', spec: { ...stdio(), toolTimeoutMs: 1500 } }]);
    await servers.settled(60_000);
    expect(await call(registry, 'mcp__s__hang')).toMatchObject({ status: 'error', content: 'mcp__s__hang timed out after 1500 ms and was stopped.' });
    expect(await call(registry, 'mcp__s__add', { a: 1, b: 1 })).toMatchObject({ content: '2' });
  });

  it('a 50 MB result is read and capped like any tool output, stored whole for read_output', async () => {
    const { registry, servers } = serversWith([{ name: 's', spec: stdio() }], { maxOutputChars: 1000 });
    await servers.settled(60_000);
        const big = await call(registry, 'mcp__s__big', { chars: 50_000_000 });
    expect(big.content.slice(0, 200)).toMatch(/^x+/);
    expect(big.status).toBe('ok');
    expect(big.content.length).toBeLessThan(1200);
    const id = /omitted of 50,000,000; full output saved as output id (out_[0-9a-f]{12})/.exec(big.content)![1]!;
    expect((await registry.outputs.get(id))!.length).toBe(50_000_000);
    expect(await call(registry, 'mcp__s__add', { a: 1, b: 1 })).toMatchObject({ content: '2' });
  });

  it('a server that crashes mid-call is restarted once; the call in flight says so; a second crash leaves it failed', async () => {
    const { registry, servers, warnings } = serversWith([{ name: 's', spec: stdio() }]);
    await servers.settled(60_000);
    const crashed = await call(registry, 'mcp__s__crash');
    expect(crashed.status).toBe('error');
    expect(crashed.content).toContain('The MCP server "s" exited during the call');
    expect(warnings).toContainEqual(expect.stringContaining('MCP server "s" exited; restarting it once.'));
    // The call after the crash waits for the restart and works.
    expect(await call(registry, 'mcp__s__add', { a: 4, b: 4 })).toMatchObject({ status: 'ok', content: '8' });
    expect(await call(registry, 'mcp__s__crash')).toMatchObject({ status: 'error' });
    const after = await call(registry, 'mcp__s__add', { a: 1, b: 1 });
    expect(after).toMatchObject({ status: 'error', content: expect.stringContaining('The MCP server "s" is not running: it exited again after a restart') });
    expect(servers.status()[0]).toMatchObject({ state: 'failed' });
  });

  it('a server that cannot start, exits at once, or answers with garbage is a warning naming the cause; the others work', async () => {
    const { registry, servers, warnings } = serversWith([
      { name: 'missing', spec: { transport: 'stdio', command: join(import.meta.dirname, 'no-such-server'), args: [], env: {} } },
      { name: 'exits', spec: stdio('--fail') },
      { name: 'garbage', spec: stdio('--garbage') },
      { name: 'good', spec: stdio() },
    ]);
    await servers.settled(60_000);
    expect(registry.names().every((name) => name.startsWith('mcp__good__') || name === 'read_mcp_resource')).toBe(true);
    const byName = Object.fromEntries(servers.status().map((status) => [status.name, status]));
    expect(byName.missing).toMatchObject({ state: 'failed', error: expect.stringContaining('ENOENT') });
    expect(byName.exits).toMatchObject({ state: 'failed', error: expect.stringContaining('stderr: cannot open the database') });
    expect(byName.garbage).toMatchObject({ state: 'failed', error: expect.stringContaining('last protocol error') });
    expect(warnings.filter((text) => text.includes('did not start'))).toHaveLength(3);
  });

  it('a server slower than the wait is left starting; its tools join the registry once it is ready', async () => {
    const { registry, servers } = serversWith([{ name: 'slow', spec: stdio('--start-delay', '1500') }]);
    await servers.settled(10);
    expect(servers.status()[0]!.state).toBe('starting');
    expect(registry.names()).toEqual([]);
    await servers.settled(60_000);
    expect(registry.names()).toContain('mcp__slow__echo');
  });
});

describe('prompts and resources', () => {
  it('prompts become /mcp__<server>__<prompt> commands, arguments by position or by name; a missing one is an error with the usage', async () => {
    const { servers } = serversWith([{ name: 'notes', spec: stdio() }]);
    await servers.settled(60_000);
    expect(servers.promptCommands()).toEqual([expect.objectContaining({ name: 'mcp__notes__review', argumentHint: '<file> [focus]', description: 'Asks for a review of one file.', server: 'notes' })]);
    expect(await servers.expandPrompt('/mcp__notes__review src/a.ts', 1000)).toEqual({ ok: true, prompt: 'Review src/a.ts.' });
    expect(await servers.expandPrompt('/mcp__notes__review src/a.ts error handling', 1000)).toEqual({ ok: true, prompt: 'Review src/a.ts, focusing on error handling.' });
    expect(await servers.expandPrompt('/mcp__notes__review focus="the tests" file=b.ts', 1000)).toEqual({ ok: true, prompt: 'Review b.ts, focusing on the tests.' });
    expect(await servers.expandPrompt('/mcp__notes__review', 1000)).toEqual({ ok: false, reason: '/mcp__notes__review: missing file; usage: review <file> [focus]' });
    expect(await servers.expandPrompt('/mcp__notes__nothing here', 10)).toBeUndefined();
    expect(await servers.expandPrompt('review this', 10)).toBeUndefined();
  });

  it('resources are listed and read through read_mcp_resource, a read-category tool', async () => {
    const { registry, servers } = serversWith([{ name: 'notes', spec: stdio() }]);
    await servers.settled(60_000);
    expect(servers.resources()).toEqual([expect.objectContaining({ server: 'notes', uri: 'notes://readme', name: 'readme', mimeType: 'text/plain' })]);
    const tool = registry.get('read_mcp_resource')!;
    expect(tool).toMatchObject({ readOnly: true, permission: { category: 'read' } });
    expect(await call(registry, 'read_mcp_resource', {})).toMatchObject({ status: 'ok', content: 'notes\tnotes://readme\treadme\ttext/plain\tThe notes read-me.' });
    expect(await call(registry, 'read_mcp_resource', { server: 'notes', uri: 'notes://readme' })).toMatchObject({ status: 'ok', content: '[resource notes://readme]\nNotes are kept one per line.' });
    expect(await call(registry, 'read_mcp_resource', { uri: 'notes://missing' })).toMatchObject({ status: 'error', content: expect.stringContaining('could not read notes://missing') });
    expect(await call(registry, 'read_mcp_resource', { server: 'other' })).toMatchObject({ status: 'error', content: expect.stringContaining('Servers with resources: notes') });
  });
});

describe('tools/list_changed', () => {
  it("replaces the server's tools in the registry before the call that caused it returns", async () => {
    const { registry, servers } = serversWith([{ name: 's', spec: stdio('--growable') }]);
    await servers.settled(60_000);
    expect(registry.names()).toContain('mcp__s__hang');
    expect(registry.names()).not.toContain('mcp__s__shout');
    expect(await call(registry, 'mcp__s__grow')).toMatchObject({ status: 'ok', content: 'grown' });
    expect(registry.names()).toContain('mcp__s__shout');
    expect(registry.names()).not.toContain('mcp__s__hang');
    expect(servers.toolOrigin('mcp__s__hang')).toBeUndefined();
    expect(await call(registry, 'mcp__s__shout', { text: 'hi' })).toMatchObject({ status: 'ok', content: 'HI' });
    expect(servers.status()[0]).toMatchObject({ state: 'ready', tools: 8 });
  });
});

describe('an MCP server over HTTP', () => {
  it('streamable HTTP, with ${VAR} expanded into the headers', async () => {
    const server = await startMcpHttpServer('streamable');
    http.push(server);
    const registry = new ToolRegistry();
    const servers = new McpServers({ registry, warn: () => {}, env: { MCP_TOKEN: 'secret-123' } });
    open.push(servers);
    servers.start({ name: 'remote', spec: { transport: 'http', url: server.url, headers: { Authorization: 'Bearer ${MCP_TOKEN}' } }, origin }, true);
    await servers.settled(60_000);
    expect(await call(registry, 'mcp__remote__echo', { text: 'over http' })).toMatchObject({ status: 'ok', content: 'echo: over http' });
    expect(server.headers.every((headers) => headers.authorization === 'Bearer secret-123')).toBe(true);
  });

  it('falls back to the HTTP+SSE transport for a server that only speaks that', async () => {
    const server = await startMcpHttpServer('sse-only');
    http.push(server);
    const { registry, servers } = serversWith([{ name: 'old', spec: { transport: 'http', url: server.url, headers: {} } }]);
    await servers.settled(60_000);
    expect(servers.status()[0]).toMatchObject({ state: 'ready' });
    expect(await call(registry, 'mcp__old__add', { a: 20, b: 22 })).toMatchObject({ content: '42' });
  });
});
