import { MARKERS } from '../providers/shared/leaked-tool-calls.js';
import { ToolCallAccumulator, type ToolCallFragment } from '../providers/openai/accumulate.js';
import { readReasoning } from '../providers/openai/reasoning.js';
import { deltas, replyText, type WireReply } from './wire.js';

export interface ToolStreamShape {
  calls: Array<{ id: string; name: string; arguments: string }>;
  /** Argument-carrying fragments per call: 1 means the server sends arguments whole. */
  fragments: number[];
  /** Some tool-call fragment came without an `index` (the adapter then goes by id and name). */
  withoutIndex: boolean;
  text: string;
  /** The tool-call markup found in the text (`<tool_call>`, `<function=`), when the server did not parse it. */
  leakedMarkup: string[];
  reasoningField?: string;
  reasoning: string;
}

/** What a streamed (or plain) reply with tools looks like on the wire. */
export function analyseToolReply(reply: WireReply): ToolStreamShape {
  const accumulator = new ToolCallAccumulator();
  const fragments: number[] = [];
  let withoutIndex = false;
  let reasoning = '';
  let reasoningField: string | undefined;
  const sources = reply.chunks.length ? deltas(reply) : plainMessage(reply);
  for (const delta of sources) {
    const thought = readReasoning(delta);
    if (thought) {
      reasoning += thought.text;
      reasoningField = thought.field;
    }
    for (const fragment of (delta.tool_calls as ToolCallFragment[] | undefined) ?? []) {
      if (typeof fragment.index !== 'number' && reply.chunks.length) withoutIndex = true;
      const { position } = accumulator.add(reply.chunks.length ? fragment : { ...fragment, index: fragments.length });
      const args = fragment.function?.arguments;
      fragments[position] = (fragments[position] ?? 0) + (args !== undefined && args !== null && args !== '' ? 1 : 0);
    }
  }
  const text = replyText(reply);
  return {
    calls: accumulator.finish('probe'),
    fragments,
    withoutIndex,
    text,
    leakedMarkup: MARKERS.filter((marker) => text.includes(marker)),
    reasoning,
    ...(reasoningField ? { reasoningField } : {}),
  };
}

function plainMessage(reply: WireReply): Array<Record<string, unknown>> {
  const message = (reply.json?.choices as Array<{ message?: Record<string, unknown> }> | undefined)?.[0]?.message;
  return message ? [message] : [];
}

/** True when the arguments are a JSON object naming `city`. */
export function validArguments(text: string): boolean {
  try {
    const value = JSON.parse(text) as { city?: unknown };
    return typeof value === 'object' && value !== null && typeof value.city === 'string';
  } catch {
    return false;
  }
}
