import { parseJson } from '../contracts/bounded-json.js';

/**
 * A reply that must be one JSON object and nothing else. One surrounding code fence is tolerated
 * (```json … ```), since many models add one whatever they are told; prose before or after, two
 * objects, or anything that is not an object is refused with the reason.
 */
export function strictJsonObject(reply: string): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  let text = reply.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/i.exec(text);
  if (fenced) text = fenced[1]!.trim();
  if (text === '') return { ok: false, error: 'the reply is empty' };
  if (!text.startsWith('{')) return { ok: false, error: 'the reply is not a JSON object' };
  const parsed = parseJson(text, 8);
  if (!parsed.ok) return { ok: false, error: `the reply is not valid JSON (${parsed.error})` };
  const value = parsed.value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, error: 'the reply is not a JSON object' };
  return { ok: true, value: value as Record<string, unknown> };
}
