/** Checks spans' GenAI message attributes against the conventions' JSON schemas (test/fixtures/otel-genai-schemas). */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';

const SCHEMA_DIR = new URL('../fixtures/otel-genai-schemas/', import.meta.url);
const SCHEMA_FILES = { 'gen_ai.input.messages': 'gen-ai-input-messages.json', 'gen_ai.output.messages': 'gen-ai-output-messages.json' } as const;

// `binary` (base64 blob content) has no checker in ajv; the schemas only name it.
const ajv = new Ajv2020({ allErrors: true, strict: false, formats: { binary: true } });
const validators = Object.fromEntries(
  Object.entries(SCHEMA_FILES).map(([attribute, file]) => [attribute, ajv.compile(JSON.parse(readFileSync(new URL(file, SCHEMA_DIR), 'utf8')) as object)]),
);

/** The attributes that have a schema. */
export const SCHEMA_ATTRIBUTES = Object.keys(SCHEMA_FILES);

/** Every way a span's message attributes break their schema, as "span name: attribute: error" lines. */
export function genAiSchemaViolations(spans: Array<{ name: string; attributes: Record<string, unknown> }>): string[] {
  return spans.flatMap((span) =>
    SCHEMA_ATTRIBUTES.flatMap((attribute) => {
      const raw = span.attributes[attribute];
      if (raw === undefined) return [];
      if (typeof raw !== 'string') return [`${span.name}: ${attribute}: not a JSON string`];
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        return [`${span.name}: ${attribute}: not JSON`];
      }
      const validate = validators[attribute]!;
      return validate(value) ? [] : (validate.errors ?? []).map((error) => `${span.name}: ${attribute}: ${error.instancePath || '/'} ${error.message ?? ''}`);
    }),
  );
}
