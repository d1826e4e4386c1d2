import { readLenientJson } from '../shared/lenient-json.js';

export interface ParsedCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** Why a reply could not be read: no JSON at all, JSON that does not parse, or the wrong shape. */
export type InvalidReason = 'no_json' | 'bad_json' | 'bad_shape';

export type ParsedReply =
  | { kind: 'calls'; calls: ParsedCall[] }
  | { kind: 'answer'; text: string }
  | { kind: 'invalid'; reason: InvalidReason; error: string };

/** Candidate starts tried before giving up, so a reply full of braces costs bounded time. */
const MAX_CANDIDATES = 200;
const ARGUMENT_KEYS = ['arguments', 'args', 'parameters', 'input'] as const;

/**
 * Reads a prompt-JSON reply defensively. The first JSON value in the text that has a valid shape
 * wins; text around it, code fences and later objects are ignored (a model that writes a call and
 * then imagines its result must not have the imagined part acted on). The value may be
 * `{"tool": name, "arguments": {...}}` (also `name` and `args`/`parameters`/`input`),
 * `{"answer": "..."}`, or an array of calls for several at once. A call beats an answer in the same
 * object. Never throws.
 */
export function parseReply(text: string): ParsedReply {
  // The earliest candidate is most likely the reply the model meant, so its error is the one told.
  let firstError: { reason: InvalidReason; error: string } | undefined;
  let tried = 0;
  let sawBrace = false;
  for (let i = 0; i < text.length && tried < MAX_CANDIDATES; i++) {
    const ch = text[i];
    if (ch !== '{' && ch !== '[') continue;
    if (ch === '{') sawBrace = true;
    tried++;
    const read = readLenientJson(text, i);
    if (!read.ok) {
      if (ch === '{') firstError ??= { reason: 'bad_json', error: `Your reply was not valid JSON: ${read.error} at character ${read.at + 1}${near(text, read.at)}.` };
      continue;
    }
    const shaped = interpret(read.value);
    if (shaped.kind !== 'invalid') return shaped;
    if (ch === '{' || (Array.isArray(read.value) && read.value.some(isObject))) firstError ??= { reason: 'bad_shape', error: shaped.error };
    // Values inside a parsed value are its parts, not candidates of their own.
    i = read.end - 1;
  }
  if (firstError) return { kind: 'invalid', ...firstError };
  if (sawBrace) return { kind: 'invalid', reason: 'bad_json', error: 'Your reply was not valid JSON.' };
  return { kind: 'invalid', reason: 'no_json', error: 'Your reply contained no JSON object.' };
}

function interpret(value: unknown): ParsedReply {
  if (Array.isArray(value)) {
    if (value.length === 0) return invalidShape('Your reply was an empty array.');
    const calls: ParsedCall[] = [];
    for (const item of value) {
      const one = isObject(item) ? readCall(item) : undefined;
      if (!one || typeof one === 'string') return invalidShape(one ?? 'Every item of an array reply must be a {"tool": ..., "arguments": {...}} object.');
      calls.push(one);
    }
    return { kind: 'calls', calls };
  }
  if (!isObject(value)) return invalidShape('Your reply must be a JSON object.');
  const call = readCall(value);
  if (typeof call === 'string') return invalidShape(call);
  if (call) return { kind: 'calls', calls: [call] };
  if ('answer' in value) {
    const answer = value.answer;
    return { kind: 'answer', text: typeof answer === 'string' ? answer : answer === null ? '' : typeof answer === 'object' ? JSON.stringify(answer) : String(answer) };
  }
  const keys = Object.keys(value).slice(0, 5).map((key) => JSON.stringify(key)).join(', ');
  return invalidShape(`Your JSON object has neither "tool" nor "answer" (it has ${keys || 'no keys'}).`);
}

/** A call, an error text for a broken call, or undefined when the object is not a call at all. */
function readCall(value: Record<string, unknown>): ParsedCall | string | undefined {
  const name = 'tool' in value ? value.tool : 'name' in value && !('answer' in value) ? value.name : undefined;
  if (name === undefined) return undefined;
  if (typeof name !== 'string' || name.trim() === '') return '"tool" must be the name of a tool, as a non-empty string.';
  const key = ARGUMENT_KEYS.find((candidate) => candidate in value);
  let args = key ? value[key] : {};
  if (typeof args === 'string') {
    const read = readLenientJson(args.trim());
    args = read.ok ? read.value : args;
  }
  if (args === null || args === undefined) args = {};
  if (!isObject(args)) return `"arguments" for ${name.trim()} must be a JSON object.`;
  return { name: name.trim(), arguments: args };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalidShape(error: string): ParsedReply {
  return { kind: 'invalid', reason: 'bad_shape', error };
}

function near(text: string, at: number): string {
  const snippet = text.slice(Math.max(0, at - 15), at + 15).replace(/\s+/g, ' ');
  return snippet ? ` (near ${JSON.stringify(snippet)})` : '';
}
