/** One line, at most `max` characters, for showing arguments and results compactly. */
export function oneLine(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Arguments as `key=value` pairs when they are a JSON object, else the raw text. */
export function summarizeArguments(raw: string, max = 100): string {
  try {
    const value: unknown = JSON.parse(raw || '{}');
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const pairs = Object.entries(value as Record<string, unknown>).map(([key, v]) => `${key}=${typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v)}`);
      return oneLine(pairs.join(' '), max);
    }
  } catch {
    // shown raw below
  }
  return oneLine(raw, max);
}
