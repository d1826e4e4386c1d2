import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { availableTools, selectTools } from '../src/cli/setup/select-tools.js';
import { TOOL_SPECS } from '../src/tools/tool-specs.js';
import { TodoList } from '../src/tools/builtin/todo-list.js';
import { calculatorTool } from '../src/tools/builtin/calculator.js';
import { createSkillTool } from '../src/skills/skill-tool.js';
import { createCodeNavTool } from '../src/lsp/code-nav-tool.js';
import { LspServers } from '../src/lsp/lsp-servers.js';
import { createReadOutputTool } from '../src/context/read-output.js';
import { MemoryOutputStore } from '../src/tools/output-store.js';
import { ToolScope } from '../src/skills/tool-scope.js';
import { deferredTool, specOf } from '../src/tools/deferred-tool.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { noSandbox } from '../src/tools/coding/shell/shell-sandbox.js';
import { ofType, runScenario } from './support/harness.js';

const workspace = mkdtempSync(join(tmpdir(), 'vibe-tool-specs-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));
const call = (name: string, args: unknown, id = 'c1') => ({ id, name, arguments: JSON.stringify(args) });

describe('the built-in tools offered from specs written at build time', () => {
  it('src/tools/tool-specs.ts is what the tools themselves say, whatever the run options (else: npm run tool-specs)', async () => {
    const skill = createSkillTool([], { scope: new ToolScope(), readRoots: [] });
    const readOutput = createReadOutputTool(new MemoryOutputStore());
    const codeNav = createCodeNavTool({ servers: new LspServers({ found: [], workspace, env: {} }) });
    const variants = [
      [...(await availableTools()), skill, readOutput, codeNav],
      [...(await availableTools({ acceptsImages: false, allowSecrets: true, extraRoots: [workspace], privateHosts: ['10.0.0.1'], todos: new TodoList() }, { sandbox: noSandbox, passEnv: ['PATH'] })), skill, readOutput, codeNav],
    ];
    for (const tools of variants) expect(Object.fromEntries(tools.map((tool) => [tool.name, specOf(tool)]))).toEqual(TOOL_SPECS);
  });

  it('a selected tool offers its schema without its code; the first call loads it, once, for its whole family', async () => {
    writeFileSync(join(workspace, 'a.txt'), 'alpha\n');
    const tools = await selectTools(['read_file', 'write_file', 'calculator']);
    const [read, write] = tools;
    expect(tools.map((tool) => tool.schema)).toEqual(['read_file', 'write_file', 'calculator'].map((name) => ({ name, description: TOOL_SPECS[name]!.description, parameters: TOOL_SPECS[name]!.parameters })));
    expect(() => read!.checkArguments({ path: 'a.txt' })).toThrow('The read_file tool is not loaded yet');
    const registry = new ToolRegistry(tools);
    const result = await registry.invoke(call('read_file', { path: 'a.txt' }), { workspace });
    expect(result.status).toBe('ok');
    expect(result.content).toContain('alpha');
    // The file tools share what was read: write_file, loaded with it, lets the read file be overwritten.
    // Loaded with its compiled check: a valid call is checked at once, without zod (unknown keys dropped as zod would).
    expect(read!.checkArguments({ path: 'a.txt', extra: 1 })).toEqual({ ok: true, data: { path: 'a.txt' } });
    const written = await registry.invoke(call('write_file', { path: 'a.txt', content: 'beta\n' }), { workspace });
    expect(written.content).toMatch(/overwrote/i);
    expect(write!.permission.subject!({ path: 'a.txt', content: '' })).toEqual({ kind: 'file-path', value: 'a.txt' });
  });

  it('invalid arguments to a not yet loaded tool get the schema error as before', async () => {
    const registry = new ToolRegistry(await selectTools(['calculator']));
    const result = await registry.invoke(call('calculator', { expression: 42 }));
    expect(result.status).toBe('error');
    expect(result.content).toContain('Invalid arguments for calculator: expression:');
    expect(result.content).toContain(JSON.stringify(TOOL_SPECS.calculator!.parameters));
  });

  it('a tool whose code fails to load is an error the model sees, and the next call tries again', async () => {
    let attempts = 0;
    const flaky = deferredTool(specOf(calculatorTool), async () => {
      attempts += 1;
      if (attempts === 1) throw new Error('chunk missing');
      return calculatorTool;
    });
    const registry = new ToolRegistry([flaky]);
    const first = await registry.invoke(call('calculator', { expression: '1+1' }));
    expect(first).toMatchObject({ status: 'error', isError: true, content: 'calculator could not be loaded: chunk missing' });
    const second = await registry.invoke(call('calculator', { expression: '1+1' }));
    expect(second).toMatchObject({ status: 'ok', content: '1+1 = 2' });
    expect(attempts).toBe(2);
  });

  it('a tool that no longer matches the spec it was offered with is refused, not run with another schema', async () => {
    const stale = { ...specOf(calculatorTool), parameters: { type: 'object', properties: { formula: { type: 'string' } }, required: ['formula'] } };
    let ran = false;
    const registry = new ToolRegistry([deferredTool(stale, async () => ({ ...calculatorTool, execute: async () => ((ran = true), 'ran') }))]);
    const result = await registry.invoke(call('calculator', { formula: '1+1' }));
    expect(result.status).toBe('error');
    expect(result.content).toMatch(/^calculator could not be loaded: the calculator tool does not match the spec it was offered with .*npm run tool-specs/);
    expect(ran).toBe(false);
  });

  it('the loop starts loading a tool as soon as the streamed reply names it, before the call starts', async () => {
    const seen: string[] = [];
    let eventsAtLoad: string[] | undefined;
    const lazy = deferredTool(specOf(calculatorTool), async () => {
      eventsAtLoad = [...seen];
      return calculatorTool;
    });
    const { events, result } = await runScenario([{ toolCalls: [{ name: 'calculator', arguments: { expression: '6*7' } }] }, { text: '42' }], {
      toolList: [lazy],
      onEvent: (event) => seen.push(event.type),
    });
    expect(result.stopReason).toBe('answered');
    expect(ofType(events, 'tool_call_end')[0]!.output).toBe('6*7 = 42');
    expect(eventsAtLoad).toBeDefined();
    expect(eventsAtLoad).not.toContain('tool_call_start');
    expect(eventsAtLoad).not.toContain('assistant_message');
  });

  it('a run that answers without calling a tool sends its request before loading one (it may load while the request is out)', async () => {
    let loads = 0;
    const lazy = deferredTool(specOf(calculatorTool), async () => {
      loads += 1;
      return calculatorTool;
    });
    const loadsWhenSent: number[] = [];
    const onSent = () => loadsWhenSent.push(loads);
    subscribe('undici:request:bodySent', onSent);
    try {
      const { server, result } = await runScenario([{ text: 'no tools needed' }], { toolList: [lazy] });
      expect(result.stopReason).toBe('answered');
      expect(server.requests[0]!.tools![0]!.function).toEqual({ name: 'calculator', description: calculatorTool.description, parameters: calculatorTool.schema.parameters });
      expect(loadsWhenSent).toEqual([0]);
      expect(loads).toBeLessThanOrEqual(1);
    } finally {
      unsubscribe('undici:request:bodySent', onSent);
    }
  });
});
