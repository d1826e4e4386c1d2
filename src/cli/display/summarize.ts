import { parseJson } from '../../contracts/bounded-json.js';

/** One line, at most `max` characters, for showing arguments and results compactly. */
export function oneLine(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Arguments as `key=value` pairs when they are a JSON object, else the raw text. */
export function summarizeArguments(raw: string, max = 100): string {
  const parsed = parseJson(raw || '{}');
  const value = parsed.ok ? parsed.value : undefined;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const pairs = Object.entries(value as Record<string, unknown>).map(([key, v]) => `${key}=${JSON.stringify(v)}`);
    return oneLine(pairs.join(' '), max);
  }
  return oneLine(raw, max);
}
