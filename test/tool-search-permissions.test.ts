/**
 * A bridged call is the real tool's call to everything that judges it: a deny rule on the real
 * name refuses it, the approval question names the real tool, a PreToolUse hook sees the real
 * name (and its matcher matches it). Through the loop, over Chat Completions, with real SDK servers.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../src/core/loop.js';
import type { AgentEvent } from '../src/contracts/events.js';
import type { Authorize } from '../src/contracts/tool.js';
import { HookedRegistry } from '../src/hooks/hooked-registry.js';
import { Hooks } from '../src/hooks/hooks.js';
import { createPermissionPolicy } from '../src/permissions/permission-policy.js';
import type { ApprovalRequest } from '../src/tools/approval.js';
import { OpenAIProvider } from '../src/providers/openai/openai-provider.js';
import { ToolSearch } from '../src/tools/tool-search/tool-search.js';
import { startChatServer, type ServerStep } from './support/chat-server.js';
import { ofType } from './support/harness.js';
import { startManyTools, type ManyTools } from './support/many-tools.js';

let many: ManyTools;
const workspace = mkdtempSync(join(tmpdir(), 'vibe-tool-search-'));
beforeAll(async () => {
  many = await startManyTools();
}, 180_000);
afterAll(async () => {
  await many?.close();
  rmSync(workspace, { recursive: true, force: true });
});

const DELETE = 'mcp__billing__delete_invoice';
const CREATE = 'mcp__billing__create_invoice';
const script = (name: string, args: Record<string, unknown>): ServerStep[] => [
  { toolCalls: [{ name: 'tool_search', arguments: { query: `select:${name}` } }] },
  { toolCalls: [{ name: 'call_tool', arguments: { name, arguments: args } }] },
  { text: 'done' },
];

async function bridgedRun(steps: ServerStep[], authorize: Authorize, registry = new HookedRegistry(new Hooks({}, { cwd: workspace, warn: () => {} }), many.tools, { offer: new ToolSearch({ mode: { kind: 'always' }, contextWindow: 200_000 }) })) {
  const server = await startChatServer(steps);
  try {
    const events: AgentEvent[] = [];
    await run({ provider: new OpenAIProvider({ apiKey: 'k', baseURL: server.url }), model: 'gpt-5', input: 'go', tools: registry, authorize, workspace }, (event) => events.push(event));
    expect(server.violations).toEqual([]);
    return ofType(events, 'tool_call_end')[1]!;
  } finally {
    await server.close();
  }
}

describe('a call through the bridge is judged as the real tool', () => {
  it('a deny rule on the real name refuses it, and one on the whole server too', async () => {
    const end = await bridgedRun(script(DELETE, { invoice_id: 'inv_1', confirm: true }), createPermissionPolicy({ mode: 'yolo', deny: [DELETE], protectedDirs: [] }));
    expect(end).toMatchObject({ name: DELETE, status: 'denied' });
    expect(end.output).toMatch(/^Denied: /);
    expect(end.output).toContain(DELETE);
    // A deny rule on the whole server refuses it too.
    const server = await bridgedRun(script(DELETE, { invoice_id: 'inv_1', confirm: true }), createPermissionPolicy({ mode: 'yolo', deny: ['mcp__billing'], protectedDirs: [] }));
    expect(server.status).toBe('denied');
  }, 60_000);

  it('the approval question names the real tool and its arguments; "yes" runs it', async () => {
    const asked: ApprovalRequest[] = [];
    const end = await bridgedRun(script(CREATE, { title: 'March' }), createPermissionPolicy({ mode: 'ask', protectedDirs: [], ask: async (request) => (asked.push(request), 'yes') }));
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ tool: CREATE, call: { name: CREATE, arguments: '{"title":"March"}' } });
    expect(asked[0]!.summary).toContain('billing › create_invoice {"title":"March"}');
    expect(end).toMatchObject({ name: CREATE, status: 'ok', output: 'billing.create_invoice {"title":"March"}' });
  }, 60_000);

  it('a PreToolUse hook matched on the real name sees the real name and may block the call', async () => {
    const seen = join(workspace, 'hook-input.json');
    const hooks = new Hooks({ PreToolUse: [{ matcher: 'mcp__billing__.*', hooks: [{ type: 'command', command: `cat > '${seen}'; echo '{"decision":"block","reason":"billing is frozen"}'` }] }] }, { cwd: workspace, warn: () => {} });
    const registry = new HookedRegistry(hooks, many.tools, { offer: new ToolSearch({ mode: { kind: 'always' }, contextWindow: 200_000 }) });
    const end = await bridgedRun(script(CREATE, { title: 'March' }), createPermissionPolicy({ mode: 'yolo', protectedDirs: [] }), registry);
    expect(end).toMatchObject({ name: CREATE, status: 'denied', output: 'Blocked by a PreToolUse hook: billing is frozen' });
    expect(JSON.parse(readFileSync(seen, 'utf8'))).toMatchObject({ tool_name: CREATE, tool_input: { title: 'March' } });
  }, 60_000);
});
