/**
 * JSON text of a value, written with an explicit stack instead of recursion: JSON.stringify and a
 * recursive walk overflow the call stack a few thousand levels down, and a model or a server can
 * send arguments nested that deep. Same output as JSON.stringify for JSON-like values (`toJSON`
 * honoured, undefined and functions dropped from objects and written as null in arrays).
 */
export function jsonText(value: unknown, sortKeys = false): string {
  const top = prepared(value);
  if (top === null || typeof top !== 'object') return JSON.stringify(top);
  const out: string[] = [];
  const open = new Set<object>();
  // The stack holds values to write, Text to write as it is, and a Leave after each container.
  const stack: unknown[] = [top];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item instanceof Text) {
      out.push(item.text);
      continue;
    }
    if (item instanceof Leave) {
      open.delete(item.value);
      continue;
    }
    if (item === null || typeof item !== 'object') {
      out.push(JSON.stringify(item) ?? 'null');
      continue;
    }
    if (open.has(item)) throw new TypeError('Converting circular structure to JSON');
    open.add(item);
    const parts: unknown[] = [];
    if (Array.isArray(item)) {
      item.forEach((element, index) => {
        const ready = prepared(element);
        parts.push(new Text(index ? ',' : '['), writable(ready) ? ready : null);
      });
      parts.push(new Text(item.length ? ']' : '[]'));
    } else {
      const keys = Object.keys(item);
      if (sortKeys) keys.sort();
      for (const key of keys) {
        const element = prepared((item as Record<string, unknown>)[key]);
        if (!writable(element)) continue;
        parts.push(new Text(`${parts.length ? ',' : '{'}${JSON.stringify(key)}:`), element);
      }
      parts.push(new Text(parts.length ? '}' : '{}'));
    }
    stack.push(new Leave(item));
    for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]);
  }
  return out.join('');
}

/** JSON with object keys sorted at every depth, so equal values give equal strings. */
export function canonicalJson(value: unknown): string {
  return jsonText(value, true);
}

class Text {
  constructor(readonly text: string) {}
}

class Leave {
  constructor(readonly value: object) {}
}

function prepared(value: unknown): unknown {
  const toJSON = (value as { toJSON?: unknown } | null | undefined)?.toJSON;
  return typeof toJSON === 'function' ? (toJSON as () => unknown).call(value) : value;
}

function writable(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}
