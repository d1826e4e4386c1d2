import type { Message, ToolMessage } from '../contracts/messages.js';
import { READ_OUTPUT_TOOL } from './read-output-name.js';
import type { ContextSettings } from './context-settings.js';
import { stubOldOutputs } from './stub-outputs.js';
import { messageUpperBound, TokenCounter } from './token-count.js';
import { capToolResult, type CappedResult } from './tool-result-cap.js';
import { PrefixMap, PrefixSum } from '../contracts/prefix-memo.js';

export interface ShrunkHistory {
  messages: Message[];
  /** Full outputs the capped results and stubs point at: put them in the OutputStore. */
  stored: Array<{ id: string; text: string }>;
  /** Some output the model sees is cut or stubbed (maybe by an earlier cap): read_output has something to read. */
  shortened: boolean;
}

/**
 * What a rewrite point applies: caps each tool result, then stubs older outputs beyond the budget.
 * Same history and settings in, same bytes out; messages map one to one.
 */
export async function shrinkToolOutputs(
  messages: readonly Message[],
  settings: Pick<ContextSettings, 'maxToolResultChars' | 'keepToolOutputTokens'>,
  signal?: AbortSignal,
  /** Kept from round to round by the caller: only the messages new since the last call are looked at. */
  memo: ShrinkMemo = new ShrinkMemo(),
): Promise<ShrunkHistory> {
  const { messages: capped, stored, shortened } = capToolOutputs(messages, settings.maxToolResultChars, memo);
  const toolBound = memo.toolBounds.total(capped);
  // Under the bound nothing can be stubbed: no need to load the tokenizer.
  if (toolBound <= settings.keepToolOutputTokens) return { messages: capped, stored, shortened };
  const counter = await TokenCounter.create();
  await counter.warm(capped, signal);
  // Aborted while counting: this history is not sent, so nothing needs stubbing.
  if (signal?.aborted) return { messages: capped, stored, shortened };
  const stubbed = stubOldOutputs(capped, { keepTokens: settings.keepToolOutputTokens, count: (message) => counter.message(message) });
  return { messages: stubbed.messages, stored: [...stored, ...stubbed.stored], shortened: shortened || stubbed.stubbed > 0 };
}

/**
 * Caps each tool result, nothing else: what every request between rewrite points does, since a
 * new result is capped before it is first sent and an earlier one is left as it was sent.
 */
export function capToolOutputs(messages: readonly Message[], maxChars: number, memo: ShrinkMemo = new ShrinkMemo()): ShrunkHistory {
  const results = memo.caps(maxChars).map(messages);
  const stored: ShrunkHistory['stored'] = [];
  for (const result of results) if (result.stored) stored.push(result.stored);
  return { messages: results.map((result) => result.message), stored, shortened: results.some((result) => result.shortened) };
}

type Capped = { message: Message; stored?: CappedResult['stored']; shortened?: boolean };

/** What shrinkToolOutputs remembers between rounds (see PrefixMap). */
export class ShrinkMemo {
  private capsFor: { maxChars: number; map: PrefixMap<Message, Capped> } | undefined;
  readonly toolBounds = new PrefixSum<Message>((message) => (message.role === 'tool' ? messageUpperBound(message) : 0));

  caps(maxChars: number): PrefixMap<Message, Capped> {
    if (this.capsFor?.maxChars !== maxChars) this.capsFor = { maxChars, map: new PrefixMap((message) => capOnce(message, maxChars)) };
    return this.capsFor.map;
  }
}

function capOnce(message: Message, maxChars: number): Capped {
  // read_output results are slices the model asked for, already bounded by the tool.
  if (message.role !== 'tool' || message.name === READ_OUTPUT_TOOL) return { message };
  return cappedOnce(message, maxChars);
}

/**
 * The same capped message for the same result each round, so its token count (cached per message
 * object) and its output id (a hash of the whole text) are computed once, not every round.
 */
const capped = new WeakMap<ToolMessage, { maxChars: number; result: CappedResult }>();

function cappedOnce(message: ToolMessage, maxChars: number): CappedResult {
  const known = capped.get(message);
  if (known?.maxChars === maxChars) return known.result;
  const result = capToolResult(message, maxChars);
  capped.set(message, { maxChars, result });
  return result;
}
