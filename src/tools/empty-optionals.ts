/**
 * Arguments with `""` and `null` for an optional field taken as the field left out. Models often
 * fill every field they were shown, sending `"symbol": ""` or `"glob": null` for one they mean to
 * skip; the schema would refuse that. Applied by the registry to every tool's arguments before they
 * are validated. A required field keeps what was sent (the schema decides), and `null` stays where
 * the field's own schema allows it.
 */
export function withoutEmptyOptionals(value: unknown, schema: Record<string, unknown>): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  let result: Record<string, unknown> | undefined;
  for (const [key, field] of Object.entries(value)) {
    if (required.has(key) || !Object.hasOwn(properties, key)) continue;
    if (field === '' || (field === null && !allowsNull(properties[key]!))) {
      result ??= { ...(value as Record<string, unknown>) };
      delete result[key];
    }
  }
  return result ?? value;
}

function allowsNull(schema: Record<string, unknown>): boolean {
  const type = schema.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  const branches = [schema.anyOf, schema.oneOf].flatMap((list) => (Array.isArray(list) ? (list as Array<Record<string, unknown>>) : []));
  return branches.some(allowsNull);
}
