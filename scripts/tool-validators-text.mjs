// The text of src/tools/validators/*.ts: every built-in tool's argument check, compiled by Ajv
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

/**
 * The files of src/tools/validators/ by name: one a tool (`<tool>.ts`), so a call loads its own check
 * alone, and `index.ts`, which imports each on demand (bundlers and Vite follow a literal import).
 */
export function toolValidatorFiles(specs) {
  const names = Object.keys(specs);
  const index = `// Written by scripts/tool-specs.mjs (\`npm run tool-specs\`); test/tool-validators.test.ts fails when it is stale.
/** Each built-in tool's compiled check (a CompiledValidator), imported at its first need. */
export const VALIDATORS: Readonly<Record<string, () => Promise<{ validate: (data: unknown) => boolean }>>> = {
${names.map((name) => `  ${name}: () => import('./${name}.js'),`).join('\n')}
};
`;
  return { ...Object.fromEntries(names.map((name) => [`${name}.ts`, validatorText(name, specs[name])])), 'index.ts': index };
}

function validatorText(name, spec) {
  const ajv = new Ajv.default(AJV_OPTIONS);
  ajv.addSchema(withSafeIntegers(spec.parameters), name);
  const code = standaloneCode.default(ajv, { validate: name });
  return `// Written by scripts/tool-specs.mjs (\`npm run tool-specs\`) with Ajv's standalone code from ${name}'s schema in tool-specs.ts; test/tool-validators.test.ts fails when it is stale.
// @ts-nocheck

${code.replace(/^"use strict";/, '').replace(/export const validate = (\w+);/, '/** True when the arguments are valid, unknown keys removed and defaults filled in place (a CompiledValidator). */\nexport const validate: (data: unknown) => boolean = $1;')}
`;
}
