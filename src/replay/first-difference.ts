import { canonicalJson } from '../contracts/canonical-json.js';

/** Where two requests first differ: a path such as `messages[0].content` and both values, shortened. */
export interface Difference {
  path: string;
  recorded: string;
  now: string;
}

const WINDOW = 60;

/**
 * The first place, in key order (canonical JSON), where `now` differs from `recorded`; undefined
 * when they are the same. Walks down to the deepest differing value, so a changed system prompt is
 * reported as `messages[0].content` with the text around the first changed character.
 */
export function firstDifference(recorded: unknown, now: unknown, path = ''): Difference | undefined {
  if (canonicalJson(recorded) === canonicalJson(now)) return undefined;
  if (isObject(recorded) && isObject(now)) {
    const keys = [...new Set([...Object.keys(recorded), ...Object.keys(now)])].sort();
    for (const key of keys) {
      const found = firstDifference(recorded[key], now[key], path ? `${path}.${key}` : key);
      if (found) return found;
    }
  }
  if (Array.isArray(recorded) && Array.isArray(now)) {
    for (let i = 0; i < Math.max(recorded.length, now.length); i++) {
      const found = firstDifference(recorded[i], now[i], `${path}[${i}]`);
      if (found) return found;
    }
  }
  if (typeof recorded === 'string' && typeof now === 'string') return { path, ...aroundFirstChange(recorded, now) };
  return { path, recorded: shorten(describe(recorded)), now: shorten(describe(now)) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function describe(value: unknown): string {
  return value === undefined ? '(absent)' : canonicalJson(value);
}

function shorten(text: string): string {
  return text.length > WINDOW * 2 ? `${text.slice(0, WINDOW * 2)}…` : text;
}

/** Both strings from a little before their first differing character, as JSON strings. */
function aroundFirstChange(recorded: string, now: string): { recorded: string; now: string } {
  let at = 0;
  while (at < recorded.length && at < now.length && recorded[at] === now[at]) at++;
  const from = Math.max(0, at - 20);
  const cut = (text: string) => `${from > 0 ? '…' : ''}${JSON.stringify(text.slice(from, from + WINDOW)).slice(1, -1)}${text.length > from + WINDOW ? '…' : ''}`;
  return { recorded: `"${cut(recorded)}"`, now: `"${cut(now)}"` };
}
