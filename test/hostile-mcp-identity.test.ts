/** Issue 27, class 4: rules and approvals name an MCP server as configured, and two servers whose tool names could clash never both run. */
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../src/contracts/messages.js';
import type { Tool } from '../src/contracts/tool.js';
import type { McpConnection } from '../src/mcp/mcp-connection.js';
import { McpServers } from '../src/mcp/mcp-servers.js';
import { mcpTool } from '../src/mcp/mcp-tool.js';
import type { ServerEntry } from '../src/mcp/server-spec.js';
import { sanitizeNamePart, serversClash } from '../src/mcp/tool-name.js';
import { createPermissionPolicy, type PermissionOptions } from '../src/permissions/permission-policy.js';
import { ToolRegistry } from '../src/tools/registry.js';

const SCRIPT = join(import.meta.dirname, 'support', 'mcp-test-server.mjs');
const ALLOWED = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-'.split('');
const FOREIGN = ['.', ' ', '/', ':', '@', '(', ')', '\x1b', '\u202e', 'é', '\u200b', '*', '$', '"'];

/** Two different names that sanitise to the same tool-name prefix: some `_` of one written as another character. */
const samePrefixPair = fc
  .tuple(fc.array(fc.constantFrom(...ALLOWED), { minLength: 1, maxLength: 12 }), fc.constantFrom(...FOREIGN), fc.nat())
  .map(([chars, foreign, at]) => {
    const plain = [...chars, '_', ...chars].join('');
    const underscores = [...plain].flatMap((char, index) => (char === '_' ? [index] : []));
    const index = underscores[at % underscores.length]!;
    return [plain, `${plain.slice(0, index)}${foreign}${plain.slice(index + 1)}`] as const;
  });
/** A server named so that a tool name of another could continue into it: `a` / `a__b`, `a` / `a_`. */
const continuingPair = fc
  .tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/), fc.constantFrom('__x', '_', '___', '__my.tools'))
  .map(([base, tail]) => [base, `${base}${tail}`] as const);

const project = (name: string): ServerEntry => ({ name, origin: { scope: 'project', file: '/ws/.mcp.json', format: 'claude-code' }, spec: { transport: 'stdio', command: 'never-run', args: [], env: {} } });
const user = (name: string): ServerEntry => ({ name, origin: { scope: 'user', file: '/home/u/.config/vibe-agent/config.json', format: 'vibe-agent' }, spec: { transport: 'stdio', command: 'never-run', args: [], env: {} } });

describe('servers whose tool names could clash', () => {
  it('pairs that sanitise alike, or where one continues into the other, clash; different names that do not are kept apart (property)', () => {
    fc.assert(
      fc.property(fc.oneof(samePrefixPair, continuingPair), ([a, b]) => {
        expect(serversClash(a, b)).toBe(true);
        expect(serversClash(b, a)).toBe(true);
      }),
    );
    for (const [a, b] of [['github', 'gitlab'], ['a', 'a_b'], ['notes', 'notes2'], ['my_srv', 'my_srv2']]) expect(serversClash(a!, b!), `${a} ${b}`).toBe(false);
  });

  it('the second is not started, whichever came first and however the first is kept, and the user is told why (property)', () => {
    fc.assert(
      fc.property(fc.oneof(samePrefixPair, continuingPair), fc.boolean(), ([a, b], swap) => {
        const [first, second] = swap ? [b, a] : [a, b];
        const warnings: string[] = [];
        const servers = new McpServers({ registry: new ToolRegistry(), warn: (message) => warnings.push(message) });
        servers.hold(user(first), 'not approved');
        servers.start(project(second), false);
        const refused = servers.status().find((status) => status.name === second)!;
        expect(refused.state).toBe('not approved');
        expect(refused.error).toContain(`like those of "${first}"`);
        expect(warnings).toEqual([expect.stringContaining(`MCP server "${second}" (/ws/.mcp.json) not started: its tools would be named mcp__${sanitizeNamePart(second)}__…`)]);
      }),
    );
  });

  it('a real server keeps its tools; the look-alike configured after it never starts', async () => {
    const registry = new ToolRegistry();
    const warnings: string[] = [];
    const servers = new McpServers({ registry, warn: (message) => warnings.push(message) });
    const real = (name: string, scope: 'user' | 'project'): ServerEntry => ({ name, origin: { scope, file: `/${scope}.json`, format: 'vibe-agent' }, spec: { transport: 'stdio', command: process.execPath, args: [SCRIPT, '--name', name], env: {} } });
    servers.start(real('my_srv', 'user'), true);
    servers.start(real('my.srv', 'project'), false);
    try {
      await servers.settled(60_000);
      expect(servers.status().map((status) => [status.name, status.state])).toEqual([['my_srv', 'ready'], ['my.srv', 'not approved']]);
      expect(warnings.join('\n')).toContain('MCP server "my.srv" (/project.json) not started: its tools would be named mcp__my_srv__…, like those of "my_srv" (/user.json)');
      expect(servers.toolOrigin('mcp__my_srv__echo')).toEqual({ server: 'my_srv', tool: 'echo' });
    } finally {
      await servers.close();
    }
  });
});

/** The permission policy's answer for one call of `tool`, with nobody to ask unless `ask` is given. */
async function decide(options: PermissionOptions, tool: Tool) {
  const call: ToolCall = { id: 'c1', name: tool.name, arguments: '{}' };
  return createPermissionPolicy(options)({ tool, args: {}, call, preview: { summary: tool.name }, workspace: '/ws', signal: new AbortController().signal });
}

const toolOf = (server: string, tool = 'echo') =>
  mcpTool({ name: `mcp__${sanitizeNamePart(server)}__${sanitizeNamePart(tool)}`, connection: { name: server } as McpConnection, origin: project(server).origin, listed: { name: tool, inputSchema: { type: 'object' } }, trustReadOnly: false, timeoutMs: undefined });
const ruleExpressible = (name: string) => !/[\s()]/.test(name);

describe('permission rules name the server as configured', () => {
  it("a user's allow rule for my_srv (the server, or one of its tools) never allows my.srv's tool, which shares the sanitised name; one naming my.srv does (property)", async () => {
    await fc.assert(
      fc.asyncProperty(samePrefixPair, async ([mine, theirs]) => {
        const tool = toolOf(theirs);
        expect(tool.name).toBe(toolOf(mine).name);
        for (const rule of [`mcp__${mine}`, `mcp__${mine}__echo`]) expect(await decide({ mode: 'ask', allow: [rule] }, tool), rule).toMatchObject({ allowed: false });
        if (ruleExpressible(theirs)) {
          expect(await decide({ mode: 'ask', allow: [`mcp__${theirs}`] }, tool)).toEqual({ allowed: true });
          expect(await decide({ mode: 'ask', allow: [`mcp__${theirs}__echo`] }, tool)).toEqual({ allowed: true });
        }
        expect(await decide({ mode: 'ask', allow: [`mcp__${mine}`] }, toolOf(mine))).toEqual({ allowed: true });
      }),
    );
  });

  it('a deny rule still holds by the sanitised name too (failing closed)', async () => {
    const denied = await decide({ mode: 'yolo', deny: ['mcp__my_srv'] }, toolOf('my.srv'));
    expect(denied).toMatchObject({ allowed: false, reason: expect.stringContaining('mcp__my_srv') });
    expect(await decide({ mode: 'yolo', deny: ['mcp__my.srv__echo'] }, toolOf('my.srv'))).toMatchObject({ allowed: false });
  });

  it('"always" for a tool grants it by identity: its look-alike is asked about again', async () => {
    const questions: string[] = [];
    const policy = createPermissionPolicy({ mode: 'ask', ask: async (request) => (questions.push(request.always ?? ''), 'always') });
    const call = (tool: Tool) => policy({ tool, args: {}, call: { id: 'c', name: tool.name, arguments: '{}' }, preview: { summary: tool.name }, workspace: '/ws', signal: new AbortController().signal });
    const odd = toolOf('odd (srv)');
    await call(odd);
    await call(odd);
    await call(toolOf('odd__srv_'));
    expect(questions).toEqual(['mcp__odd (srv)__echo', 'mcp__odd__srv___echo']);
  });

  it('the question for a call names the server and the file it came from', async () => {
    const preview = await toolOf('my.srv').preview({ q: 1 }, {} as never);
    expect(preview).toEqual({ summary: 'my.srv › echo {"q":1}', detail: 'MCP server "my.srv" from /ws/.mcp.json (project).' });
  });
});
