/**
 * Turns the JSON Schema our tools derive from zod into the OpenAPI subset Gemini's
 * `functionDeclarations[].parameters` accepts. Gemini answers 400 to keywords outside it
 * (`$schema`, `additionalProperties`, `$ref`, `const`, `oneOf`, `exclusiveMinimum`, most
 * `format`s, ...), so each is translated where a close equivalent exists and dropped otherwise.
 */
type JsonSchema = Record<string, unknown>;

/** Keywords Gemini's Schema object knows. Anything else is translated or dropped. */
export const GEMINI_SCHEMA_KEYS: ReadonlySet<string> = new Set([
  'type', 'format', 'title', 'description', 'nullable', 'enum', 'maxItems', 'minItems', 'properties', 'required',
  'minProperties', 'maxProperties', 'minLength', 'maxLength', 'pattern', 'example', 'anyOf', 'propertyOrdering',
  'default', 'items', 'minimum', 'maximum',
]);

/** The only formats Gemini accepts, per type. */
const FORMATS: Record<string, ReadonlySet<string>> = {
  string: new Set(['enum', 'date-time']),
  integer: new Set(['int32', 'int64']),
  number: new Set(['float', 'double']),
};

const MAX_REF_DEPTH = 3;

interface Context {
  root: JsonSchema;
  /** $ref targets being expanded, to cut recursion. */
  expanding: string[];
}

/** The cleaned schema, or undefined when the tool takes no arguments (Gemini rejects an empty OBJECT). */
export function cleanSchemaForGemini(schema: Record<string, unknown>): Record<string, unknown> | undefined {
  const cleaned = clean(schema, { root: schema, expanding: [] });
  if (cleaned.type === 'object' && !cleaned.properties) return undefined;
  return cleaned;
}

function clean(input: JsonSchema, context: Context): JsonSchema {
  const schema = resolveRef(input, context);
  if (schema === undefined) return { type: 'object', description: 'Recursive structure (nested further than this schema shows).' };
  const out: JsonSchema = {};
  const unions = [...asSchemas(schema.anyOf), ...asSchemas(schema.oneOf)];
  const merged = asSchemas(schema.allOf).reduce<JsonSchema>((acc, part) => mergeAll(acc, resolveRef(part, context) ?? {}), {});
  const source: JsonSchema = { ...merged, ...schema };

  if (source.nullable === true) out.nullable = true;
  let type = source.type;
  if (Array.isArray(type)) {
    const types = type.filter((t): t is string => typeof t === 'string');
    if (types.includes('null')) out.nullable = true;
    const rest = types.filter((t) => t !== 'null');
    if (rest.length === 1) type = rest[0];
    else {
      type = undefined;
      unions.push(...rest.map((t) => ({ type: t })));
    }
  }
  if (type === 'null') {
    out.nullable = true;
    type = undefined;
  }

  if (unions.length) {
    const branches = unions.filter((branch) => !(resolveRef(branch, context)?.type === 'null'));
    if (branches.length < unions.length) out.nullable = true;
    const cleaned = branches.map((branch) => clean(branch, context));
    // One branch left (the `T | null` case): the branch is the schema.
    if (cleaned.length === 1) return withMeta({ ...cleaned[0], ...(out.nullable ? { nullable: true } : {}) }, source);
    if (cleaned.length > 1) out.anyOf = cleaned;
  }
  // Gemini refuses `type` next to `anyOf`.
  if (typeof type === 'string' && !out.anyOf) out.type = type;

  if ('const' in source) {
    const value = source.const;
    if (typeof value === 'string') {
      // A fixed value says more than any union it sits in.
      delete out.anyOf;
      out.type = 'string';
      out.enum = [value];
    } else source.description = appendNote(source.description, `Must be ${JSON.stringify(value)}.`);
  }
  if (Array.isArray(source.enum)) {
    // Gemini takes enums of strings only, on a STRING.
    if (source.enum.every((value) => typeof value === 'string')) {
      delete out.anyOf;
      out.type = 'string';
      out.enum = source.enum;
    }
    else source.description = appendNote(source.description, `One of: ${source.enum.map((v) => JSON.stringify(v)).join(', ')}.`);
  }

  const properties = source.properties as Record<string, JsonSchema> | undefined;
  if (properties && typeof properties === 'object' && Object.keys(properties).length) {
    out.properties = Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, clean(value, context)]));
    const required = Array.isArray(source.required) ? source.required.filter((key): key is string => typeof key === 'string' && key in properties) : [];
    if (required.length) out.required = required;
  }
  // A map type (`z.record`) has no Gemini form: say in words what the values are.
  const values = source.additionalProperties;
  if (!out.properties && values && typeof values === 'object' && typeof (values as JsonSchema).type === 'string') {
    source.description = appendNote(source.description, `An object with any keys; each value is a ${String((values as JsonSchema).type)}.`);
  }
  if (source.items !== undefined) {
    const items = Array.isArray(source.items) ? source.items[0] : source.items;
    if (items && typeof items === 'object') out.items = clean(items as JsonSchema, context);
  }
  if (out.type === 'array' && !out.items) out.items = { type: 'string' };

  // An exclusive bound becomes the inclusive one: a little looser, never wrongly stricter.
  if (typeof source.exclusiveMinimum === 'number' && source.minimum === undefined) out.minimum = source.exclusiveMinimum;
  if (typeof source.exclusiveMaximum === 'number' && source.maximum === undefined) out.maximum = source.exclusiveMaximum;
  for (const key of ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'pattern', 'default']) {
    if (source[key] !== undefined) out[key] = source[key];
  }
  if (typeof source.format === 'string' && typeof out.type === 'string' && FORMATS[out.type]?.has(source.format)) out.format = source.format;
  if (Array.isArray(source.examples) && source.examples.length) out.example = source.examples[0];
  return withMeta(out, source);
}

function withMeta(out: JsonSchema, source: JsonSchema): JsonSchema {
  if (typeof source.title === 'string') out.title = source.title;
  if (typeof source.description === 'string' && source.description) out.description = source.description;
  return out;
}

/** Follows a local `$ref` (`#/definitions/x`, `#/$defs/x`, `#`); undefined when it recurses too deep. */
function resolveRef(schema: JsonSchema, context: Context): JsonSchema | undefined {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  if (context.expanding.filter((r) => r === ref).length >= MAX_REF_DEPTH - 1) return undefined;
  let target: unknown = context.root;
  for (const segment of ref.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    target = (target as JsonSchema | undefined)?.[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  if (!target || typeof target !== 'object') return { type: 'object', description: `Unresolved reference ${ref}.` };
  const { $ref: _ignored, ...siblings } = schema;
  context.expanding.push(ref);
  try {
    // Sibling keywords (a description next to the $ref) win over the target's.
    return { ...(clean(target as JsonSchema, context) as JsonSchema), ...siblings };
  } finally {
    context.expanding.pop();
  }
}

function mergeAll(a: JsonSchema, b: JsonSchema): JsonSchema {
  const properties = { ...(a.properties as object | undefined), ...(b.properties as object | undefined) };
  const required = [...((a.required as string[] | undefined) ?? []), ...((b.required as string[] | undefined) ?? [])];
  return { ...a, ...b, ...(Object.keys(properties).length ? { properties } : {}), ...(required.length ? { required } : {}) };
}

function asSchemas(value: unknown): JsonSchema[] {
  return Array.isArray(value) ? value.filter((v): v is JsonSchema => !!v && typeof v === 'object') : [];
}

function appendNote(description: unknown, note: string): string {
  return typeof description === 'string' && description ? `${description} ${note}` : note;
}
