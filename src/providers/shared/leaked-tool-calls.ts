import type { ToolSchema } from '../../contracts/provider.js';
import { readLenientJson } from './lenient-json.js';

export interface LeakedCall {
  name: string;
  /** JSON text of an object, like a native call's arguments. */
  arguments: string;
}

/**
 * Tool calls a server left in the text because its tool parser is off (llama.cpp, vLLM, Ollama
 * with a mismatched template): Hermes/Qwen `<tool_call>{"name":…,"arguments":…}</tool_call>`,
 * `<function=name>{…}</function>`, and Qwen3-coder's
 * `<tool_call><function=name><parameter=k>v</parameter></function></tool_call>`.
 * Only calls to offered tools are taken; anything else stays in the text. A block cut off at the
 * end of the text (the closing tag missing) is still read, as servers often stop right there.
 */
export function extractLeakedToolCalls(text: string, tools: ToolSchema[]): { calls: LeakedCall[]; text: string } | undefined {
  if (tools.length === 0 || !MARKERS.some((marker) => text.includes(marker))) return undefined;
  const calls: LeakedCall[] = [];
  const take = (whole: string, inner: string, reader: (inner: string) => LeakedCall | undefined): string => {
    const call = reader(inner);
    if (!call || !tools.some((tool) => tool.name === call.name)) return whole;
    calls.push(call);
    return '';
  };
  let rest = text.replace(/<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/g, (whole, inner: string) => take(whole, inner, (body) => readToolCallBody(body, tools)));
  rest = rest.replace(/<function=([^>\s]+)>([\s\S]*?)(?:<\/function>|$)/g, (whole, name: string, body: string) => take(whole, '', () => readFunction(name, body, tools)));
  if (calls.length === 0) return undefined;
  return { calls, text: rest.replace(/\n{3,}/g, '\n\n').trim() };
}

export const MARKERS = ['<tool_call>', '<function='];

function readToolCallBody(body: string, tools: ToolSchema[]): LeakedCall | undefined {
  const trimmed = body.trim();
  const fn = /^<function=([^>\s]+)>([\s\S]*?)(?:<\/function>\s*)?$/.exec(trimmed);
  if (fn) return readFunction(fn[1]!, fn[2]!, tools);
  const read = readLenientJson(trimmed);
  if (!read.ok || !isObject(read.value)) return undefined;
  const { name } = read.value;
  const args = read.value.arguments ?? read.value.parameters ?? {};
  if (typeof name !== 'string') return undefined;
  const object = typeof args === 'string' ? readObject(args) : args;
  return isObject(object) ? { name, arguments: JSON.stringify(object) } : undefined;
}

function readFunction(name: string, body: string, tools: ToolSchema[]): LeakedCall | undefined {
  const parameters = [...body.matchAll(/<parameter=([^>\s]+)>([\s\S]*?)(?:<\/parameter>|(?=<parameter=)|$)/g)];
  if (parameters.length === 0) {
    const object = body.trim() === '' ? {} : readObject(body.trim());
    return isObject(object) ? { name, arguments: JSON.stringify(object) } : undefined;
  }
  const properties = (tools.find((tool) => tool.name === name)?.parameters.properties ?? {}) as Record<string, { type?: unknown }>;
  const args: Record<string, unknown> = {};
  for (const [, key, raw] of parameters) {
    const value = raw!.replace(/^\n/, '').replace(/\n$/, '');
    // Values arrive as bare text; the schema says which ones are numbers, booleans or objects.
    const type = properties[key!]?.type;
    const typed = type !== undefined && type !== 'string' ? readLenientJson(value.trim()) : undefined;
    Object.defineProperty(args, key!, { value: typed?.ok && typed.end === value.trim().length ? typed.value : value, enumerable: true, writable: true, configurable: true });
  }
  return { name, arguments: JSON.stringify(args) };
}

function readObject(text: string): unknown {
  const read = readLenientJson(text);
  return read.ok ? read.value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Holds streamed text back from the first tool-call marker on (and a trailing piece that may be
 * the start of one), so leaked markup is not shown as the answer while it streams.
 */
export class LeakedTextGuard {
  private text = '';
  private shown = 0;

  /** Adds a delta; returns the part that is safe to show now. */
  push(delta: string): string {
    this.text += delta;
    const markerAt = Math.min(...MARKERS.map((marker) => this.text.indexOf(marker, Math.max(0, this.shown - marker.length))).filter((at) => at >= 0), Infinity);
    let until = markerAt === Infinity ? this.text.length - partialMarkerLength(this.text) : markerAt;
    until = Math.max(until, this.shown);
    const out = this.text.slice(this.shown, until);
    this.shown = until;
    return out;
  }

  /** What is still held back. */
  rest(): string {
    const out = this.text.slice(this.shown);
    this.shown = this.text.length;
    return out;
  }
}

function partialMarkerLength(text: string): number {
  let longest = 0;
  for (const marker of MARKERS) {
    for (let n = Math.min(marker.length - 1, text.length); n > longest; n--) {
      if (text.endsWith(marker.slice(0, n))) {
        longest = n;
        break;
      }
    }
  }
  return longest;
}
