import type { Message } from '../contracts/messages.js';
import { imageChip } from '../images/image-chip.js';
import type { OutputStore } from '../tools/output-store.js';
import type { TokenCounter } from './token-count.js';
import { isStub } from './stub-outputs.js';

/** What the model is asked to write when older turns are folded into a summary. */
export const SUMMARY_INSTRUCTIONS = `You are compacting the earlier part of a coding agent's conversation so that the agent can continue without it.
Write a summary in Markdown with exactly these sections:
## Goal
## Decisions
## Files touched
## Facts to keep
(names, ids, values, paths, commands and error messages the agent will need: copy their exact spelling)
## Open items
## The user's latest request (verbatim)
Be concrete and brief. Do not call tools and do not add a preamble.`;

const OUTPUT_PREVIEW_CHARS = [1_500, 400, 80];

/**
 * The transcript of the messages being summarised, as one text that fits `maxTokens`: tool
 * outputs are shortened first (stubbed ones are looked up in the store so their start is
 * still seen), then whole messages are left out of the middle.
 */
export async function renderTranscript(
  messages: readonly Message[],
  options: { counter: TokenCounter; maxTokens: number; store?: OutputStore },
): Promise<string> {
  const resolved = await Promise.all(messages.map((message) => resolveStub(message, options.store)));
  let chunks: string[] = [];
  for (const previewChars of OUTPUT_PREVIEW_CHARS) {
    chunks = messages.map((message, index) => renderMessage(message, resolved[index], previewChars));
    if (options.counter.text(chunks.join('\n')) <= options.maxTokens) return chunks.join('\n');
  }
  return fitByOmittingMiddle(chunks, options);
}

function renderMessage(message: Message, fullOutput: string | undefined, previewChars: number): string {
  // The summary replaces the images too: it must say they were there, so the model can ask again.
  const images = (message.role === 'user' || message.role === 'tool') && message.images?.length ? `\n${message.images.map(imageChip).join(' ')} (not carried over by the summary)` : '';
  if (message.role === 'tool') {
    const text = fullOutput ?? message.content;
    const shown = text.length > previewChars ? `${text.slice(0, previewChars)}\n[… ${text.length - previewChars} more characters]` : text;
    return `[tool result: ${message.name}${message.isError ? ', error' : ''}]\n${shown}${images}`;
  }
  if (message.role === 'assistant') {
    const calls = message.toolCalls.map((call) => `→ called ${call.name} ${call.arguments.length > 300 ? `${call.arguments.slice(0, 300)}…` : call.arguments}`);
    return [`[assistant]`, message.content, ...calls].filter(Boolean).join('\n');
  }
  return `[${message.role}]\n${message.content}${images}`;
}

async function resolveStub(message: Message, store: OutputStore | undefined): Promise<string | undefined> {
  if (message.role !== 'tool' || !store || !isStub(message.content)) return undefined;
  const id = /read_output id (out_[0-9a-f]{12})/.exec(message.content)?.[1];
  return id ? store.get(id) : undefined;
}

function fitByOmittingMiddle(chunks: string[], options: { counter: TokenCounter; maxTokens: number }): string {
  const costs = chunks.map((chunk) => options.counter.text(chunk) + 1);
  const headBudget = Math.floor(options.maxTokens * 0.3);
  let used = 0;
  let head = 0;
  while (head < chunks.length && used + costs[head]! <= headBudget) used += costs[head++]!;
  let tail = chunks.length;
  while (tail > head && used + costs[tail - 1]! <= options.maxTokens - 20) used += costs[--tail]!;
  const omitted = tail - head;
  const middle = omitted ? [`[… ${omitted} message${omitted === 1 ? '' : 's'} left out to fit the summary request …]`] : [];
  return [...chunks.slice(0, head), ...middle, ...chunks.slice(tail)].join('\n');
}
