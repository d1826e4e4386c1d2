import type { Message, ToolMessage } from '../contracts/messages.js';
import type { ContextSettings } from './context-settings.js';
import { shrinkToolOutputs, ShrinkMemo } from './shrink-outputs.js';
import { TokenCounter } from './token-count.js';

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
