import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolValidatorFiles } from '../scripts/tool-validators-text.mjs';
import { availableTools } from '../src/cli/setup/select-tools.js';
import type { Tool } from '../src/contracts/tool.js';
import { createReadOutputTool } from '../src/context/read-output.js';
import { createCodeNavTool } from '../src/lsp/code-nav-tool.js';
import { LspServers } from '../src/lsp/lsp-servers.js';
import { createSkillTool } from '../src/skills/skill-tool.js';
import { ToolScope } from '../src/skills/tool-scope.js';
import { defineTool } from '../src/tools/define-tool.js';
import { MemoryOutputStore } from '../src/tools/output-store.js';
import { TOOL_SPECS } from '../src/tools/tool-specs.js';
import { builtInValidator } from '../src/tools/built-in-validator.js';
import type { CompiledValidator } from '../src/tools/compiled-validator.js';
import { z } from 'zod';

const VALIDATORS = new URL('../src/tools/validators/', import.meta.url);
const TOOL_VALIDATORS: Record<string, CompiledValidator> = Object.fromEntries(await Promise.all(Object.keys(TOOL_SPECS).map(async (name) => [name, await builtInValidator(name)()])));

type Schema = { type?: string; properties?: Record<string, Schema>; required?: string[]; items?: Schema; enum?: string[]; pattern?: string; minLength?: number; minimum?: number; maximum?: number; exclusiveMinimum?: number; default?: unknown };

async function everyBuiltInTool(): Promise<Tool[]> {
  return [
    ...(await availableTools()),
    createSkillTool([], { scope: new ToolScope(), readRoots: [] }),
    createReadOutputTool(new MemoryOutputStore()),
    createCodeNavTool({ servers: new LspServers({ found: [], workspace: '.', env: {} }) }),
  ];
}

/** The compiled check and the tool's zod schema on the same arguments (as JSON sends them): accepted or not, and the data. */
async function both(tool: Tool, args: unknown) {
  const sent = JSON.parse(JSON.stringify(args)) as unknown;
  const zod = await tool.checkArguments(structuredClone(sent));
  const data = structuredClone(sent);
  const compiled = TOOL_VALIDATORS[tool.name]!(data);
  return { compiled: compiled ? { ok: true, data } : { ok: false }, zod: zod.ok ? { ok: true, data: zod.data } : { ok: false } };
}

const STRINGS = ['', 'a', 'é', 'e\u0301', '😀', '\ud800', 'x'.repeat(1000), ' ', 'out_0123456789ab', 'out_0123456789AB', 'pending', 'project'];
const NUMBERS = [0, -0, 1, -1, 1.5, -2.5, 2 ** 31, 2 ** 53 - 1, 2 ** 53, -(2 ** 53) + 1, -(2 ** 53), 1e9, 1e9 + 1, 1e300, 5e-324];
const OTHERS = [null, true, false, [], ['x'], {}, { a: 1 }];

/** A valid value for a schema, to vary one field at a time. */
function sample(schema: Schema): unknown {
  if (schema.enum) return schema.enum[0];
  if (schema.pattern) return 'out_0123456789ab';
  switch (schema.type) {
    case 'string':
      return 'x'.repeat(schema.minLength ?? 0);
    case 'integer':
      return Math.max(schema.minimum ?? 1, (schema.exclusiveMinimum ?? 0) + 1);
    case 'boolean':
      return true;
    case 'array':
      return [sample(schema.items!)];
    default:
      return Object.fromEntries((schema.required ?? []).map((key) => [key, sample(schema.properties![key]!)]));
  }
}

/** Values at a field's edges: its limits and one past them, and every other kind of value. */
function edges(schema: Schema): unknown[] {
  const limits = [schema.minimum, schema.maximum, schema.exclusiveMinimum].filter((limit): limit is number => limit !== undefined).flatMap((limit) => [limit - 1, limit, limit + 1, limit + 0.5]);
  const lengths = schema.minLength !== undefined ? ['x'.repeat(schema.minLength), 'x'.repeat(Math.max(0, schema.minLength - 1)), '😀'.slice(0, 1)] : [];
  const nested = schema.type === 'array' ? [[sample(schema.items!)], [sample(schema.items!), { ...(sample(schema.items!) as object), extra: 1 }], [{}], [null], ...edges(schema.items!).map((value) => [value])] : [];
  const fields = schema.type === 'object' ? Object.entries(schema.properties ?? {}).flatMap(([key, field]) => edges(field).map((value) => ({ ...(sample(schema) as object), [key]: value }))) : [];
  return [...STRINGS, ...NUMBERS, ...OTHERS, ...(schema.enum ?? []).map((value) => value.toUpperCase()), ...limits, ...lengths, ...nested, ...fields];
}

/** Hand-picked arguments for a tool: valid, each field varied, each required field missing, extra keys, not an object. */
function handPicked(schema: Schema): unknown[] {
  const valid = sample(schema) as Record<string, unknown>;
  const full = { ...valid, ...Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, field]) => [key, sample(field)])) };
  const missing = (schema.required ?? []).map((key) => Object.fromEntries(Object.entries(full).filter(([other]) => other !== key)));
  const varied = Object.entries(schema.properties ?? {}).flatMap(([key, field]) => edges(field).flatMap((value) => [{ ...valid, [key]: value }, { ...full, [key]: value }]));
  return [valid, full, {}, { ...full, extra: 'x', nested: { a: 1 } }, { ...valid, constructor: 1, toString: 'x' }, JSON.parse(`{"__proto__": {"polluted": true}, "x": 1}`), ...missing, ...varied, ...STRINGS, ...NUMBERS, ...OTHERS];
}

/** Random arguments near the schema: each field absent, valid-looking or any JSON, plus unknown keys. */
function near(schema: Schema): fc.Arbitrary<unknown> {
  const any = fc.jsonValue({ maxDepth: 2 });
  const edgy = fc.constantFrom(...edges(schema));
  switch (schema.type) {
    case 'string':
      return fc.oneof(schema.enum ? fc.constantFrom(...schema.enum) : schema.pattern ? fc.stringMatching(new RegExp(schema.pattern)) : fc.string({ unit: 'binary', maxLength: 4 }), fc.string({ unit: 'grapheme', maxLength: 3 }), edgy, any);
    case 'integer':
      return fc.oneof(fc.integer({ min: (schema.minimum ?? -10) - 2, max: Math.min(schema.maximum ?? 10, 1e6) + 2 }), fc.maxSafeInteger(), fc.double({ noNaN: true, noDefaultInfinity: true }), edgy, any);
    case 'boolean':
      return fc.oneof(fc.boolean(), any);
    case 'array':
      return fc.oneof({ weight: 3, arbitrary: fc.array(near(schema.items!), { maxLength: 3 }) }, { weight: 1, arbitrary: any });
    default: {
      const fields = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, field]) => [key, fc.option(near(field), { nil: undefined, freq: 3 })]));
      const known = fc.record(fields, { requiredKeys: [] });
      return fc.tuple(known, fc.dictionary(fc.string({ maxLength: 6 }), any, { maxKeys: 2 })).map(([own, extra]) => ({ ...extra, ...own }));
    }
  }
}

describe('the built-in tools’ compiled argument checks (src/tools/validators/)', () => {
  it('are what the generator writes from tool-specs.ts, one file a tool and no other (else: npm run tool-specs)', () => {
    const expected = toolValidatorFiles(TOOL_SPECS);
    expect(readdirSync(VALIDATORS).sort()).toEqual(Object.keys(expected).sort());
    for (const [file, text] of Object.entries(expected)) expect(readFileSync(new URL(file, VALIDATORS), 'utf8'), file).toBe(text);
  });

  it('cover every built-in tool', async () => {
    const names = (await everyBuiltInTool()).map((tool) => tool.name).sort();
    expect(Object.keys(TOOL_SPECS).sort()).toEqual(names);
    for (const name of names) expect(TOOL_VALIDATORS[name], name).toBeTypeOf('function');
  });

  it('agree with each tool’s zod schema on hand-picked arguments: accepted or not, and the data (unknown keys dropped, defaults filled)', async () => {
    let accepted = 0;
    let refused = 0;
    for (const tool of await everyBuiltInTool()) {
      for (const args of handPicked(tool.schema.parameters as Schema)) {
        const { compiled, zod } = await both(tool, args);
        expect(compiled, `${tool.name} ${JSON.stringify(args)}`).toEqual(zod);
        if (zod.ok) accepted += 1;
        else refused += 1;
      }
    }
    // Both kinds in number: a corpus all accepted (or all refused) would prove little.
    expect(accepted).toBeGreaterThan(200);
    expect(refused).toBeGreaterThan(200);
  });

  it('agree with each tool’s zod schema on random arguments near its schema', async () => {
    for (const tool of await everyBuiltInTool()) {
      await fc.assert(
        fc.asyncProperty(near(tool.schema.parameters as Schema), async (args) => {
          const { compiled, zod } = await both(tool, args);
          expect(compiled, `${tool.name} ${JSON.stringify(args)}`).toEqual(zod);
        }),
        { numRuns: 300 },
      );
    }
  });

  it('fill remember’s default scope as zod does', async () => {
    const remember = (await everyBuiltInTool()).find((tool) => tool.name === 'remember')!;
    expect(await both(remember, { fact: 'tests run with npm test' })).toEqual({ compiled: { ok: true, data: { fact: 'tests run with npm test', scope: 'project' } }, zod: { ok: true, data: { fact: 'tests run with npm test', scope: 'project' } } });
  });
});

describe('defineTool for library users', () => {
  it('still takes a plain zod schema: its JSON Schema at once, its check synchronous, zod’s message on a bad call', () => {
    const tool = defineTool({ name: 'weather', description: 'The weather in a city.', parameters: z.object({ city: z.string().min(1), days: z.number().int().max(7).optional() }), execute: async ({ city }) => `sunny in ${city}` });
    expect(tool.schema.parameters).toEqual({ type: 'object', properties: { city: { type: 'string', minLength: 1 }, days: { type: 'integer', maximum: 7 } }, required: ['city'] });
    expect(tool.checkArguments({ city: 'Oslo', extra: 1 })).toEqual({ ok: true, data: { city: 'Oslo' } });
    expect(tool.checkArguments({ city: '', days: 8 })).toEqual({ ok: false, issues: 'city: Too small: expected string to have >=1 characters; days: Too big: expected number to be <=7' });
  });
});
