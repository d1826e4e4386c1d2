/**
 * `""` and `null` for an optional field are the field left out, for every tool, before validation
 * (issue 34, class 10): models fill every field they were shown.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { availableTools } from '../src/cli/setup/select-tools.js';
import { createCodeNavTool } from '../src/lsp/code-nav-tool.js';
import { LspServers } from '../src/lsp/lsp-servers.js';
import { createReadOutputTool } from '../src/context/read-output.js';
import { MemoryOutputStore } from '../src/tools/output-store.js';
import { defineTool } from '../src/tools/define-tool.js';
import { withoutEmptyOptionals } from '../src/tools/empty-optionals.js';
import { ToolRegistry } from '../src/tools/registry.js';
import type { Tool } from '../src/contracts/tool.js';

async function everyTool(): Promise<Tool[]> {
  const tools = [...(await availableTools()), createReadOutputTool(new MemoryOutputStore()), createCodeNavTool({ servers: new LspServers({ found: [], workspace: '.', env: {} }) })];
  for (const tool of tools) await tool.load?.();
  return tools;
}

describe('empty optional arguments', () => {
  it('property: for every tool, "" or null in any set of its optional fields is never what validation refuses', async () => {
    const tools = await everyTool();
    expect(tools.length).toBeGreaterThan(10);
    for (const tool of tools) {
      const schema = tool.schema.parameters as { properties?: Record<string, unknown>; required?: string[] };
      const optional = Object.keys(schema.properties ?? {}).filter((name) => !(schema.required ?? []).includes(name));
      if (!optional.length) continue;
      await fc.assert(
        fc.asyncProperty(fc.subarray(optional, { minLength: 1 }), fc.array(fc.constantFrom('', null)), async (fields, blanks) => {
          const args = Object.fromEntries(fields.map((field, index) => [field, blanks[index % Math.max(1, blanks.length)] ?? '']));
          const result = await tool.checkArguments(withoutEmptyOptionals(args, tool.schema.parameters));
          const refused = result.ok ? [] : result.issues.split('; ').map((issue) => issue.split(/[.:]/)[0]!);
          expect(refused.filter((name) => fields.includes(name)), `${tool.name} ${JSON.stringify(args)}`).toEqual([]);
        }),
        { numRuns: 25 },
      );
    }
  });

  it('a required field keeps its "" and the schema still decides; a field whose schema takes null keeps it', () => {
    const schema = { type: 'object', properties: { path: { type: 'string' }, note: { anyOf: [{ type: 'string' }, { type: 'null' }] }, glob: { type: 'string' } }, required: ['path'] };
    expect(withoutEmptyOptionals({ path: '', note: null, glob: null }, schema)).toEqual({ path: '', note: null });
  });

  it('code_nav symbols with "symbol": "" is not a schema error; a real value still reaches the tool', async () => {
    const seen: unknown[] = [];
    const tool = defineTool({
      name: 'lookup',
      description: 'l',
      parameters: z.object({ operation: z.enum(['symbols', 'definition']), symbol: z.string().min(1).optional(), line: z.number().int().optional() }),
      readOnly: true,
      execute: async (args) => (seen.push(args), 'ok'),
    });
    const registry = new ToolRegistry([tool]);
    const empty = await registry.invoke({ id: '1', name: 'lookup', arguments: '{"operation":"symbols","symbol":"","line":null}' });
    expect(empty.isError).toBeFalsy();
    const given = await registry.invoke({ id: '2', name: 'lookup', arguments: '{"operation":"definition","symbol":"run","line":3}' });
    expect(given.isError).toBeFalsy();
    expect(seen).toEqual([{ operation: 'symbols' }, { operation: 'definition', symbol: 'run', line: 3 }]);
  });
});
