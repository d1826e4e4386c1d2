import type { AgentEvent, StopReason } from '../contracts/events.js';
import { emptyReplyError } from './empty-reply.js';
import { estimateUsage } from './estimate-usage.js';
import { addUsage, emptyUsage, type Message, type Usage } from '../contracts/messages.js';
import { repairHistory } from './repair-history.js';
import { RepeatDetector } from './repeat-detector.js';
import { DEFAULT_RETRY, requestWithRetry, type RetryPolicy } from './request-with-retry.js';
import { runToolCalls } from './run-tool-calls.js';
import type { ModelRequest, ModelResponse, Provider } from '../contracts/provider.js';
import { isAbortError, ProviderError } from '../contracts/provider-error.js';
import { costOf, priceOf, type ModelPrice } from '../providers/pricing.js';
import { errorText } from '../contracts/error-text.js';
import { ToolRegistry } from '../tools/registry.js';
import type { Authorize } from '../contracts/tool.js';

export interface AgentOptions {
  provider: Provider;
  model: string;
  /** The new user input for this run. */
  input: string;
  tools?: ToolRegistry;
  /** Used when `messages` does not already start with a system message. */
  system?: string;
  /** Earlier conversation to continue (copied, never mutated). */
  messages?: Message[];
  /** Model requests allowed with tools (default 25). */
  maxTurns?: number;
  temperature?: number;
  maxTokens?: number;
  /** Identical calls with identical results in a row that stop the run (default 3). */
  repeatLimit?: number;
  /** Identical calls whose results keep changing, in a row, that stop the run (default 8). */
  changingRepeatLimit?: number;
  /** Unreadable replies in a row (prompt-JSON) that stop the run as a repeated failure (default 4). */
  protocolErrorLimit?: number;
  /** At the turn limit, ask once more without tools for a hand-off (default true). */
  handoff?: boolean;
  signal?: AbortSignal;
  workspace?: string;
  /** Permission check for calls that need approval; without it they run. */
  authorize?: Authorize;
  retry?: RetryPolicy;
  /** US dollars the run may spend (list prices; estimated usage when the server reports none). Passing it stops the run. */
  maxCost?: number;
  /** The model's price, when the built-in table does not know it. */
  price?: ModelPrice;
  /**
   * Runs before every request (the context policy: truncation, compaction). The messages it
   * returns become the history from then on; the events it returns are yielded as they are.
   */
  prepareMessages?: (
    messages: Message[],
    context: { turn: number; model: string; signal: AbortSignal; /** What the server reported for the previous request. */ usage?: Usage },
  ) => Promise<{ messages: Message[]; events?: AgentEvent[] }>;
  /**
   * Called once per turn when the provider rejects the prompt as too long (kind
   * `context_length`): the messages it returns replace the history and the request is retried once.
   */
  onContextOverflow?: (
    messages: Message[],
    context: { turn: number; model: string; signal: AbortSignal; error: ProviderError },
  ) => Promise<{ messages: Message[]; events?: AgentEvent[] }>;
}

export interface RunResult {
  answer: string | null;
  stopReason: StopReason;
  handoff?: string;
  error?: string;
  messages: Message[];
  usage: Usage;
  turns: number;
  /** Replies a text protocol (prompt-JSON) could not read; absent when none. */
  protocolErrors?: number;
  /** US dollars spent, when the model's price is known. */
  cost?: number;
}

const HANDOFF_REQUEST =
  'You have reached the turn limit for this run and cannot call tools any more. ' +
  'Reply with a short hand-off for the user: what is done, what remains, and the next step.';

/**
 * The loop. Sends the whole history and the tool schemas; a reply without tool calls is the
 * answer; otherwise the assistant message is appended as received, each call runs, one tool
 * message per call is appended in call order, and the model is asked again.
 */
export async function* runAgent(options: AgentOptions): AsyncGenerator<AgentEvent, RunResult> {
  const registry = options.tools ?? new ToolRegistry();
  const maxTurns = options.maxTurns ?? 25;
  const signal = options.signal ?? new AbortController().signal;
  let messages: Message[] = [...(options.messages ?? [])];
  if (options.system && messages[0]?.role !== 'system') messages.unshift({ role: 'system', content: options.system });
  messages.push({ role: 'user', content: options.input });

  const repeats = new RepeatDetector({ sameResult: options.repeatLimit ?? 3, changingResult: options.changingRepeatLimit ?? 8 });
  let usage = emptyUsage();
  let lastUsage: Usage | undefined;
  let turns = 0;
  let protocolErrors = 0;
  let protocolErrorsInARow = 0;
  const price = options.price ?? priceOf(options.model);
  const spent = () => costOf(options.model, usage, price);
  const overBudget = () => options.maxCost !== undefined && (spent() ?? 0) > options.maxCost;
  const budgetError = () => `spent $${(spent() ?? 0).toFixed(4)}, over the limit of $${options.maxCost}${usage.estimated ? ' (partly estimated usage)' : ''}`;

  const baseRequest = (): ModelRequest => ({
    model: options.model,
    messages: [...messages],
    tools: registry.schemas(),
    temperature: options.temperature ?? 0,
    ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
  });

  const finish = (reason: StopReason, extra: { answer?: string; handoff?: string; error?: string } = {}) => {
    const result: RunResult = { answer: extra.answer ?? null, stopReason: reason, messages, usage, turns };
    if (protocolErrors) result.protocolErrors = protocolErrors;
    if (extra.handoff !== undefined) result.handoff = extra.handoff;
    if (extra.error !== undefined) result.error = extra.error;
    const event: AgentEvent = { type: 'stop', reason, answer: result.answer, turns, usage };
    if (extra.handoff !== undefined) event.handoff = extra.handoff;
    if (extra.error !== undefined) event.error = extra.error;
    const cost = spent();
    if (cost !== undefined) result.cost = event.cost = cost;
    return { result, event };
  };

  yield { type: 'run_start', provider: options.provider.name, model: options.model, tools: registry.names(), input: options.input };
  // A cost brake that cannot price the model must not silently let the run spend.
  if (options.maxCost !== undefined && !price) {
    return yield* stopWith(finish('cost_limit', { error: `no price is known for model "${options.model}", so a cost limit cannot be kept (pass a price)` }));
  }

  while (turns < maxTurns) {
    if (signal.aborted) return yield* stopWith(finish('aborted'));
    if (overBudget()) return yield* stopWith(finish('cost_limit', { error: budgetError() }));
    turns++;
    const turn = turns;
    yield { type: 'turn_start', turn };

    if (options.prepareMessages) {
      const prepared = await options.prepareMessages(messages, { turn, model: options.model, signal, ...(lastUsage ? { usage: lastUsage } : {}) });
      messages = prepared.messages;
      yield* contextEvents(prepared.events, turn);
      // A compaction's summary request may have been what crossed the limit.
      if (overBudget()) return yield* stopWith(finish('cost_limit', { error: budgetError() }));
    }
    const repaired = repairHistory(messages);
    if (repaired.repairs.length) {
      messages = repaired.messages;
      yield { type: 'history_repaired', turn, repairs: repaired.repairs };
    }

    let response: ModelResponse | undefined;
    let request = baseRequest();
    let overflowHandled = false;
    while (!response) {
      try {
        request = baseRequest();
        const stream = requestWithRetry(options.provider, request, signal, options.retry ?? DEFAULT_RETRY);
        for (;;) {
          const next = await stream.next();
          if (next.done) {
            response = next.value;
            break;
          }
          const event = next.value;
          yield event.type === 'retry' ? event : { ...event, turn };
        }
      } catch (error) {
        if (signal.aborted || isAbortError(error)) return yield* stopWith(finish('aborted'));
        if (!overflowHandled && options.onContextOverflow && error instanceof ProviderError && error.kind === 'context_length') {
          overflowHandled = true;
          const shrunk = await options.onContextOverflow(messages, { turn, model: options.model, signal, error });
          messages = shrunk.messages;
          yield* contextEvents(shrunk.events, turn);
          continue;
        }
        return yield* stopWith(finish('provider_error', { error: error instanceof ProviderError ? error.message : errorText(error) }));
      }
    }

    lastUsage = response.usage;
    const turnUsage = response.usage ?? estimateUsage(request, response.message);
    usage = addUsage(usage, turnUsage);
    yield { type: 'usage', turn, usage: turnUsage, total: usage };
    const empty = response.protocolError ? undefined : emptyReplyError(response, options.provider.name);
    // An empty reply is kept out of the history: repairHistory would drop it from every later request (and resume).
    if (!empty) messages.push(response.message);
    yield {
      type: 'assistant_message',
      turn,
      message: response.message,
      finishReason: response.finishReason,
      ...(response.leakedToolCalls ? { leakedToolCalls: response.leakedToolCalls } : {}),
    };
    if (response.protocolError) {
      protocolErrors++;
      protocolErrorsInARow++;
      const { reason, error, feedback } = response.protocolError;
      yield { type: 'protocol_error', turn, reason, error, count: protocolErrors };
      const limit = options.protocolErrorLimit ?? 4;
      if (protocolErrorsInARow >= limit) {
        yield { type: 'turn_end', turn, messages: [response.message] };
        return yield* stopWith(finish('repeated_call', { error: `${limit} replies in a row could not be read as the protocol asks (last: ${error})` }));
      }
      const correction: Message = { role: 'user', content: feedback };
      messages.push(correction);
      yield { type: 'turn_end', turn, messages: [response.message, correction] };
      continue;
    }
    protocolErrorsInARow = 0;

    if (response.message.toolCalls.length === 0) {
      yield { type: 'turn_end', turn, messages: empty ? [] : [response.message] };
      if (empty) return yield* stopWith(finish('provider_error', { error: empty }));
      return yield* stopWith(finish('answered', { answer: response.message.content }));
    }

    const calls = response.message.toolCalls;
    const toolMessages = yield* runToolCalls(calls, {
      registry,
      turn,
      finishReason: response.finishReason,
      signal,
      workspace: options.workspace ?? process.cwd(),
      ...(options.authorize ? { authorize: options.authorize } : {}),
    });
    messages.push(...toolMessages);
    yield { type: 'turn_end', turn, messages: [response.message, ...toolMessages] };
    if (signal.aborted) return yield* stopWith(finish('aborted'));

    let repeated: string | undefined;
    toolMessages.forEach((message, index) => {
      repeated = repeats.record(calls[index]!, message.content) ?? repeated;
    });
    if (repeated) return yield* stopWith(finish('repeated_call', { error: repeated }));
  }

  if (options.handoff === false) return yield* stopWith(finish('turn_limit'));
  if (overBudget()) return yield* stopWith(finish('cost_limit', { error: budgetError() }));
  const handoff = yield* requestHandoff();
  return yield* stopWith(finish(signal.aborted ? 'aborted' : 'turn_limit', handoff === undefined ? {} : { handoff }));

  /** The context policy's events; a compaction's summary request is a request of this run, so its usage counts. */
  function* contextEvents(events: AgentEvent[] | undefined, turn: number): Generator<AgentEvent> {
    for (const event of events ?? []) {
      yield event;
      if (event.type === 'compaction' && event.usage) {
        usage = addUsage(usage, event.usage);
        yield { type: 'usage', turn, usage: event.usage, total: usage };
      }
    }
  }

  async function* requestHandoff(): AsyncGenerator<AgentEvent, string | undefined> {
    const request: ModelRequest = { ...baseRequest(), messages: [...messages, { role: 'user', content: HANDOFF_REQUEST }], tools: [] };
    try {
      const stream = requestWithRetry(options.provider, request, signal, options.retry ?? DEFAULT_RETRY);
      let next = await stream.next();
      while (!next.done) {
        if (next.value.type === 'retry') yield next.value;
        next = await stream.next();
      }
      const handoffUsage = next.value.usage ?? estimateUsage(request, next.value.message);
      usage = addUsage(usage, handoffUsage);
      yield { type: 'usage', turn: turns, usage: handoffUsage, total: usage };
      const text = next.value.message.content.trim();
      if (!text) return undefined;
      yield { type: 'handoff', text };
      return text;
    } catch {
      return undefined;
    }
  }
}

function* stopWith({ result, event }: { result: RunResult; event: AgentEvent }): Generator<AgentEvent, RunResult> {
  yield event;
  return result;
}

/** Drains a run and returns its result; `onEvent` sees every event on the way. */
export async function run(options: AgentOptions, onEvent?: (event: AgentEvent) => void): Promise<RunResult> {
  const generator = runAgent(options);
  for (;;) {
    const next = await generator.next();
    if (next.done) return next.value;
    onEvent?.(next.value);
  }
}
