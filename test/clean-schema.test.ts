import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cleanSchemaForGemini, GEMINI_SCHEMA_KEYS } from '../src/providers/google/clean-schema.js';
import { defineTool } from '../src/tools/define-tool.js';

/** Every key at every depth of a cleaned schema must be one Gemini knows. */
function unknownKeys(schema: unknown, path = '$'): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const node = schema as Record<string, unknown>;
  const out = Object.keys(node).filter((key) => !GEMINI_SCHEMA_KEYS.has(key)).map((key) => `${path}.${key}`);
  for (const [name, child] of Object.entries((node.properties as Record<string, unknown>) ?? {})) out.push(...unknownKeys(child, `${path}.properties.${name}`));
  if (node.items) out.push(...unknownKeys(node.items, `${path}.items`));
  for (const [i, branch] of ((node.anyOf as unknown[]) ?? []).entries()) out.push(...unknownKeys(branch, `${path}.anyOf[${i}]`));
  return out;
}

const schemaOf = (parameters: z.ZodType) => defineTool({ name: 't', description: 'd', parameters, execute: async () => '' }).schema.parameters;

describe('cleanSchemaForGemini', () => {
  it('drops $schema and additionalProperties and keeps properties, required and descriptions', () => {
    const cleaned = cleanSchemaForGemini({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      additionalProperties: false,
      properties: { path: { type: 'string', description: 'a file' }, depth: { type: 'integer', minimum: 0 } },
      required: ['path', 'ghost'],
    });
    expect(cleaned).toEqual({
      type: 'object',
      properties: { path: { type: 'string', description: 'a file' }, depth: { type: 'integer', minimum: 0 } },
      required: ['path'],
    });
  });

  it('inlines $ref/definitions and cuts recursion short', () => {
    const cleaned = cleanSchemaForGemini({
      type: 'object',
      properties: { root: { $ref: '#/definitions/node' } },
      definitions: { node: { type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#/definitions/node' } } } },
    })!;
    expect(unknownKeys(cleaned)).toEqual([]);
    const root = (cleaned.properties as Record<string, Record<string, Record<string, Record<string, unknown>>>>).root!;
    expect(root.properties!.name).toEqual({ type: 'string' });
    expect(JSON.stringify(cleaned)).not.toContain('$ref');
  });

  it('turns unions into anyOf or nullable, const into an enum, and exclusive bounds into inclusive ones', () => {
    const cleaned = cleanSchemaForGemini({
      type: 'object',
      properties: {
        a: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        b: { oneOf: [{ type: 'string' }, { type: 'number' }] },
        c: { type: ['integer', 'null'] },
        d: { const: 'x' },
        e: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 10 },
        f: { type: 'integer', enum: [1, 2, 3] },
        g: { type: 'string', format: 'uri' },
        h: { type: 'string', format: 'date-time' },
        i: { allOf: [{ type: 'object', properties: { x: { type: 'string' } } }, { properties: { y: { type: 'string' } }, required: ['y'] }] },
      },
    })!;
    const p = cleaned.properties as Record<string, Record<string, unknown>>;
    expect(p.a).toEqual({ type: 'string', nullable: true });
    expect(p.b).toEqual({ anyOf: [{ type: 'string' }, { type: 'number' }] });
    expect(p.c).toEqual({ type: 'integer', nullable: true });
    expect(p.d).toEqual({ type: 'string', enum: ['x'] });
    expect(p.e).toEqual({ type: 'number', minimum: 0, maximum: 10 });
    expect(p.f).toEqual({ type: 'integer', description: 'One of: 1, 2, 3.' });
    expect(p.g).toEqual({ type: 'string' });
    expect(p.h).toEqual({ type: 'string', format: 'date-time' });
    expect(p.i).toEqual({ type: 'object', properties: { x: { type: 'string' }, y: { type: 'string' } }, required: ['y'] });
    expect(unknownKeys(cleaned)).toEqual([]);
  });

  it('returns undefined for a tool without arguments (Gemini rejects an OBJECT without properties)', () => {
    expect(cleanSchemaForGemini(schemaOf(z.object({})))).toBeUndefined();
  });

  it('leaves nothing Gemini rejects in schemas derived from real zod tools', () => {
    const tree: z.ZodType = z.lazy(() => z.object({ value: z.number(), kids: z.array(tree) }));
    const schemas = [
      z.object({ path: z.string(), offset: z.number().int().nonnegative().optional(), limit: z.number().int().positive().max(2000).optional() }),
      z.object({ edits: z.array(z.object({ old: z.string(), new: z.string() })).min(1), mode: z.enum(['a', 'b']).default('a') }),
      z.object({ url: z.string().url(), headers: z.record(z.string(), z.string()).optional(), when: z.string().datetime() }),
      z.object({ choice: z.discriminatedUnion('kind', [z.object({ kind: z.literal('x'), n: z.number() }), z.object({ kind: z.literal('y'), s: z.string() })]) }),
      z.object({ tree }),
    ];
    for (const schema of schemas) {
      const cleaned = cleanSchemaForGemini(schemaOf(schema));
      expect(cleaned).toBeDefined();
      expect(unknownKeys(cleaned)).toEqual([]);
      expect(JSON.stringify(cleaned)).not.toMatch(/"\$ref"|"const"|"oneOf"|"allOf"|additionalProperties|exclusiveM/);
    }
  });
});

describe('cleanSchemaForGemini on arbitrary schemas', () => {
  it('always yields a schema the Gemini checker accepts (property test)', async () => {
    const fc = (await import('fast-check')).default;
    const { checkGeminiRequest } = await import('./support/gemini-rules.js');
    const leaf = fc.oneof(
      fc.record({ type: fc.constantFrom('string', 'number', 'integer', 'boolean', 'null') }, { requiredKeys: [] }),
      fc.record({ type: fc.constant('string'), format: fc.constantFrom('uri', 'email', 'date-time', 'uuid'), minLength: fc.nat(5) }, { requiredKeys: ['type'] }),
      fc.record({ const: fc.oneof(fc.string(), fc.integer(), fc.boolean()) }),
      fc.record({ enum: fc.array(fc.oneof(fc.string(), fc.integer()), { minLength: 1, maxLength: 3 }) }),
      fc.record({ type: fc.constant('number'), exclusiveMinimum: fc.integer(), exclusiveMaximum: fc.integer(), multipleOf: fc.constant(2) }),
      fc.constant({ $ref: '#/definitions/thing' }),
      fc.constant({ $ref: '#/$defs/missing' }),
      fc.constant({ type: ['string', 'integer', 'null'] }),
      fc.constant({ not: { type: 'string' } }),
    );
    const schema = fc.letrec<{ node: Record<string, unknown> }>((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.record(
          {
            type: fc.constant('object'),
            properties: fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), tie('node'), { maxKeys: 3 }),
            required: fc.array(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 2 }),
            additionalProperties: fc.oneof(fc.boolean(), tie('node')),
            patternProperties: fc.constant({ '^x': { type: 'string' } }),
          },
          { requiredKeys: ['type'] },
        ),
        fc.record({ type: fc.constant('array'), items: fc.oneof(tie('node'), fc.array(tie('node'), { maxLength: 2 })), uniqueItems: fc.boolean() }, { requiredKeys: ['type'] }),
        fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
        fc.record({ oneOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
        fc.record({ allOf: fc.array(tie('node'), { minLength: 1, maxLength: 2 }) }),
      ),
    })).node;
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), schema, { minKeys: 1, maxKeys: 4 }), (properties) => {
        const root = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties, definitions: { thing: { type: 'object', properties: { self: { $ref: '#/definitions/thing' } } } } };
        const parameters = cleanSchemaForGemini(root);
        const body = { contents: [{ role: 'user', parts: [{ text: 'q' }] }], tools: [{ functionDeclarations: [{ name: 'f', ...(parameters ? { parameters } : {}) }] }] };
        expect(checkGeminiRequest(body, { calls: 0, signatures: [] })).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
