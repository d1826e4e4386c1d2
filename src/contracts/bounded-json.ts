import { errorText } from './error-text.js';

/**
 * Deepest nesting of arrays and objects accepted in JSON from a model. JSON.parse copes with any
 * depth, but JSON.stringify, zod, the SDKs and every recursive walk overflow the call stack a few
 * thousand levels down; no real tool argument comes near this.
 */
export const MAX_JSON_DEPTH = 100;

export type JsonParse = { ok: true; value: unknown } | { ok: false; error: string };

/** JSON.parse that never throws, and refuses text nested deeper than `maxDepth` before building it. */
export function parseJson(text: string, maxDepth = MAX_JSON_DEPTH): JsonParse {
  const depth = jsonNesting(text);
  if (depth > maxDepth) return { ok: false, error: `arrays and objects are nested ${depth} levels deep; at most ${maxDepth} are accepted` };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: errorText(error) };
  }
}

/** How deep brackets nest in JSON text, by one scan that skips strings. */
export function jsonNesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (code === 0x5d || code === 0x7d) depth--;
  }
  return deepest;
}

/**
 * How deep arrays and objects nest in a value already built (a server's JSON Schema), by an
 * explicit stack; stops counting past `limit` so a hostile value costs no more than that.
 */
export function valueNesting(value: unknown, limit = Infinity): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}
