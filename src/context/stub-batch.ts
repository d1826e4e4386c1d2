import type { Message, ToolMessage } from '../contracts/messages.js';
import type { ContextSettings } from './context-settings.js';
import { shrinkToolOutputs, ShrinkMemo } from './shrink-outputs.js';
import { TokenCounter } from './token-count.js';
import { isStub, MIN_STUB_CHARS } from './stub-outputs.js';

/** A batch of older outputs to stub at a rewrite point, and what it would save and cost. */
export interface StubBatch {
  messages: Message[];
  stored: Array<{ id: string; text: string }>;
  stubbed: Array<{ at: number; message: ToolMessage }>;
  /** Tokens the stubs take out of every request. */
  savedTokens: number;
  /** Tokens from the first stub to the end of the history, after stubbing. */
  rewrittenTokens: number;
}

/**
 * The batch a rewrite point would stub: every output older than the newest `keepToolOutputTokens`
 * (the low-water mark), so that after it the prompt grows again from there and the next rewrite is
 * far away. Undefined when there is nothing to stub.
 */
export async function planStubBatch(
  messages: readonly Message[],
  settings: Pick<ContextSettings, 'maxToolResultChars' | 'keepToolOutputTokens'>,
  memo: ShrinkMemo,
  signal?: AbortSignal,
): Promise<StubBatch | undefined> {
  const shrunk = await shrinkToolOutputs(messages, settings, signal, memo);
  const stubbed: StubBatch['stubbed'] = [];
  for (let i = 0; i < messages.length; i++) {
    const after = shrunk.messages[i]!;
    if (after !== messages[i] && after.role === 'tool') stubbed.push({ at: i, message: after });
  }
  if (!stubbed.length || signal?.aborted) return undefined;
  // Stubbing only happens past the output budget, so the tokenizer is loaded by now.
  const counter = await TokenCounter.create();
  let savedTokens = 0;
  for (const { at, message } of stubbed) savedTokens += counter.message(messages[at]!) - counter.message(message);
  let rewrittenTokens = 0;
  for (let i = stubbed[0]!.at; i < shrunk.messages.length; i++) rewrittenTokens += counter.message(shrunk.messages[i]!);
  return { messages: shrunk.messages, stored: shrunk.stored, stubbed, savedTokens, rewrittenTokens };
}

/** About 4 characters a token, and what a stub line costs: enough to weigh a rewrite without the tokenizer. */
const CHARS_PER_TOKEN = 4;
const STUB_TOKENS = 30;

/**
 * The batch's saving and rewritten size, estimated from characters: what the cost model weighs
 * each round. Only a rewrite it decides on counts tokens (planStubBatch), so a run whose outputs
 * never pay for one never loads the tokenizer for them.
 */
export function estimateStubBatch(messages: readonly Message[], keepTokens: number): { savedTokens: number; rewrittenTokens: number } | undefined {
  let kept = 0;
  let newest = true;
  let savedTokens = 0;
  let first = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== 'tool' || message.content.length < MIN_STUB_CHARS || isStub(message.content)) continue;
    const tokens = Math.ceil(message.content.length / CHARS_PER_TOKEN);
    if (newest || (first === -1 && kept + tokens <= keepTokens)) {
      kept += tokens;
      newest = false;
      continue;
    }
    savedTokens += Math.max(0, tokens - STUB_TOKENS);
    first = i;
  }
  if (first === -1 || savedTokens === 0) return undefined;
  let rewrittenTokens = -savedTokens;
  for (let i = first; i < messages.length; i++) rewrittenTokens += Math.ceil(contentLength(messages[i]!) / CHARS_PER_TOKEN);
  return { savedTokens, rewrittenTokens: Math.max(0, rewrittenTokens) };
}

function contentLength(message: Message): number {
  return message.content.length + (message.role === 'assistant' ? message.toolCalls.reduce((sum, call) => sum + call.arguments.length + call.name.length, 0) : 0);
}
