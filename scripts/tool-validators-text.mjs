// The text of src/tools/tool-validators.ts: every built-in tool's argument check, compiled by Ajv
// (standalone code, no Ajv at run time) from the JSON Schemas in tool-specs.ts, with options that
// make it take what the tool's zod schema takes and give the same data (test/tool-validators.test.ts).
import Ajv from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';

const AJV_OPTIONS = {
  code: { source: true, esm: true, lines: false },
  removeAdditional: 'all', // zod strips unknown keys
  useDefaults: true, // remember's `scope`
  unicode: false, // zod counts a string's length in UTF-16 units
  unicodeRegExp: false, // zod tests `.regex()` with the RegExp as written, without the u flag
  messages: false, // a failed check hands over to zod, whose message the model gets
  logger: { log() {}, warn() {}, error: console.error }, // `unicode` is deprecated, still honoured
};

/** zod's `.int()` stops at ±2^53−1; the specs leave those bounds out (defineTool drops them from requests). */
function withSafeIntegers(schema) {
  if (Array.isArray(schema)) return schema.map(withSafeIntegers);
  if (!schema || typeof schema !== 'object') return schema;
  const copy = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, withSafeIntegers(value)]));
  if (copy.type === 'integer') {
    copy.minimum ??= Number.MIN_SAFE_INTEGER;
    copy.maximum ??= Number.MAX_SAFE_INTEGER;
  }
  return copy;
}

export function toolValidatorsText(specs) {
  const ajv = new Ajv.default(AJV_OPTIONS);
  for (const [name, spec] of Object.entries(specs)) ajv.addSchema(withSafeIntegers(spec.parameters), name);
  const code = standaloneCode.default(ajv, Object.fromEntries(Object.keys(specs).map((name) => [name, name])));
  const exported = [...code.matchAll(/export const (\w+) = (\w+);/g)].map(([, name, fn]) => `  ${name}: ${fn},`);
  const body = code.replace(/export const \w+ = \w+;/g, '').replace(/^"use strict";/, '');
  return `// Written by scripts/tool-specs.mjs (\`npm run tool-specs\`) with Ajv's standalone code from the schemas in tool-specs.ts; test/tool-validators.test.ts fails when it is stale.
// @ts-nocheck
import type { CompiledValidator } from './compiled-validator.js';

${body}

export const TOOL_VALIDATORS: Readonly<Record<string, CompiledValidator>> = {
${exported.join('\n')}
};
`;
}
