import { readFileSync } from 'node:fs';
import { validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../src/server/openapi-document.js';
import { ROUTES } from '../src/server/route-specs.js';
import { AGENT_ROUTES } from '../src/server/agents-route-spec.js';
// @ts-expect-error: a plain .mjs helper shared with scripts/client-types.mjs
import { clientTypesText } from '../scripts/client-types-text.mjs';

describe("the server's OpenAPI document", () => {
  it('passes a standard OpenAPI 3.1 validator, schemas and references included', async () => {
    const result = await validate(structuredClone(openApiDocument('1.2.3')) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('has every route of the table, and the bodies are the schemas the routes validate with', () => {
    const document = openApiDocument('1.2.3') as { paths: Record<string, Record<string, { operationId: string; requestBody?: unknown; security?: unknown[] }>>; components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }> } };
    for (const route of [...ROUTES, ...AGENT_ROUTES]) expect(document.paths[route.path]?.[route.method.toLowerCase()]?.operationId).toBe(route.operationId);
    expect(document.paths['/v1/health']!.get!.security).toEqual([]);
    expect(document.paths['/v1/sessions']!.post!.security).toBeUndefined();
    const prompt = document.components.schemas.Prompt!;
    expect(Object.keys(prompt.properties!)).toEqual(['text', 'mode', 'permissionMode', 'planScope']);
    expect(prompt.required).toEqual(['text']);
    expect(document.paths['/v1/agents']!.get!.security).toBeUndefined();
    expect(document.components.schemas.Agent!.required).toEqual(['id', 'name', 'state', 'workspace', 'repo', 'pendingApprovals']);
  });

  it('src/client/api-types.ts is what openapi-typescript makes of it today (else: npm run client-types)', async () => {
    const written = readFileSync(new URL('../src/client/api-types.ts', import.meta.url), 'utf8');
    expect(written).toBe(await clientTypesText(openApiDocument('0.0.0')));
  });
});
