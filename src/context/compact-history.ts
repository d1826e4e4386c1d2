import type { AgentEvent } from '../contracts/events.js';
import { imageChip } from '../images/image-chip.js';
import { estimateUsage } from '../providers/shared/estimate-usage.js';
import type { Message, Usage, UserMessage } from '../contracts/messages.js';
import { DEFAULT_RETRY, requestWithRetry, type RetryPolicy } from '../core/request-with-retry.js';
import type { ModelRequest, Provider } from '../contracts/provider.js';
import { isAbortError } from '../contracts/provider-error.js';
import { errorText } from '../contracts/error-text.js';
import type { OutputStore } from '../tools/output-store.js';
import { renderTranscript, SUMMARY_INSTRUCTIONS } from './summary-prompt.js';
import { TokenCounter } from './token-count.js';
import { DROPPED_MARKER, latestUserRequest, SUMMARY_MARKER, turnUnits } from './turn-units.js';

export type CompactionEvent = Extract<AgentEvent, { type: 'compaction' }>;

export interface CompactOptions {
  provider: Provider;
  model: string;
  signal?: AbortSignal;
  /** Tokens of the newest turns kept whole (at least the newest turn is always kept). */
  keepRecentTokens: number;
  /** Awaited once older turns are known to be summarised, before the summary is asked for. */
  beforeSummary?(): Promise<void>;
  /** The largest prompt the summary request may send (default 24,000 tokens). */
  maxRequestTokens?: number;
  /** Longest summary asked for (default 2,048 tokens). */
  summaryMaxTokens?: number;
  /** Where capped and elided outputs live, so the summariser sees their start. */
  store?: OutputStore;
  retry?: RetryPolicy;
  /** For the event (default 0, as for a user's /compact between runs). */
  turn?: number;
  /** Extra guidance for the summariser (e.g. what the user typed after /compact). */
  focus?: string;
}

export interface CompactResult {
  messages: Message[];
  /** Undefined when there was nothing old enough to compact (or the run was aborted). */
  event?: CompactionEvent;
}

/**
 * Folds older turns into one summary written by the model (through the same provider, without
 * tools). Kept as they are: the leading system message, every other system message, the user's
 * latest request, and the newest turns. Cuts fall only between turns, so a call is never parted
 * from its results. If the summary request fails, the old turns are dropped with a note instead.
 */
export async function compactHistory(messages: readonly Message[], options: CompactOptions): Promise<CompactResult> {
  const counter = await TokenCounter.create();
  const start = messages[0]?.role === 'system' ? 1 : 0;
  const units = turnUnits(messages, start);
  if (units.length === 0) return { messages: [...messages] };
  const unitTokens = (index: number) => counter.messages(messages.slice(units[index]!.start, units[index]!.end));
  // Keep the newest turns whole, as many as fit (the newest always).
  let cutUnit = units.length - 1;
  let kept = unitTokens(cutUnit);
  while (cutUnit > 0 && kept + unitTokens(cutUnit - 1) <= options.keepRecentTokens) kept += unitTokens(--cutUnit);
  const from = start;
  const to = units[cutUnit]!.start;
  const range = messages.slice(from, to);
  const latest = latestUserRequest(messages);
  const pinned = range.filter((message, offset) => message.role === 'system' || from + offset === latest);
  if (range.length === pinned.length) return { messages: [...messages] };
  await options.beforeSummary?.();

  const tokensBefore = counter.messages(messages);
  const replacedCount = range.length;
  // Images in the replaced range are gone from the history: the note says which, never silently.
  const lostImages = range.filter((message) => !pinned.includes(message)).flatMap((message) => (message.role === 'user' || message.role === 'tool' ? (message.images ?? []) : []));
  const imagesNote = lostImages.length ? ` Images in them are no longer attached: ${lostImages.map(imageChip).join(' ')}; ask the user (or read_file) to see one again.` : '';
  let summary: string;
  let note: UserMessage;
  let fallback: string | undefined;
  let usage: Usage | undefined;
  try {
    ({ text: summary, usage } = await requestSummary(range, latest >= 0 ? messages[latest]!.content : '', counter, options));
    note = { role: 'user', content: `${SUMMARY_MARKER}: ${replacedCount} messages were replaced by this summary, written by the model. Full tool outputs remain available through read_output.${imagesNote}]\n\n${summary}` };
  } catch (error) {
    if (options.signal?.aborted || isAbortError(error)) return { messages: [...messages] };
    fallback = `the summary request failed: ${errorText(error)}`;
    summary = `${replacedCount} earlier messages were dropped to fit the context window (${fallback}).`;
    note = { role: 'user', content: `${DROPPED_MARKER} ${summary} Tool outputs from them remain available through read_output ids, if you saw them.${imagesNote}]` };
  }
  const inserted: Message[] = [...pinned, note];
  const compacted = [...messages.slice(0, from), ...inserted, ...messages.slice(to)];
  const event: CompactionEvent = {
    type: 'compaction',
    turn: options.turn ?? 0,
    tokensBefore,
    tokensAfter: counter.messages(compacted),
    summary,
    dropped: replacedCount - pinned.length,
    replaced: { from, count: replacedCount },
    inserted,
  };
  if (fallback) event.fallback = fallback;
  if (usage) event.usage = usage;
  return { messages: compacted, event };
}

async function requestSummary(range: readonly Message[], latestRequest: string, counter: TokenCounter, options: CompactOptions): Promise<{ text: string; usage: Usage }> {
  const summaryMaxTokens = options.summaryMaxTokens ?? 2_048;
  const maxRequestTokens = options.maxRequestTokens ?? 24_000;
  const framing = `\n\nThe user's latest request, to copy verbatim under its heading:\n${latestRequest}${options.focus ? `\n\nFocus the summary on: ${options.focus}` : ''}`;
  const available = maxRequestTokens - counter.text(SUMMARY_INSTRUCTIONS) - counter.text(framing) - 64;
  if (available < 256) throw new Error(`the latest request alone leaves no room for a summary request within ${maxRequestTokens} tokens`);
  const transcript = await renderTranscript(range, { counter, maxTokens: available, ...(options.store ? { store: options.store } : {}) });
  const request: ModelRequest = {
    model: options.model,
    messages: [
      { role: 'system', content: SUMMARY_INSTRUCTIONS },
      { role: 'user', content: `The conversation so far:\n\n${transcript}${framing}` },
    ],
    tools: [],
    temperature: 0,
    maxTokens: summaryMaxTokens,
  };
  const stream = requestWithRetry(
    options.provider,
    request,
    options.signal,
    options.retry ?? DEFAULT_RETRY,
  );
  let next = await stream.next();
  while (!next.done) next = await stream.next();
  const text = next.value.message.content.trim();
  if (!text) throw new Error('the model returned an empty summary');
  return { text, usage: next.value.usage ?? estimateUsage(request, next.value.message) };
}
