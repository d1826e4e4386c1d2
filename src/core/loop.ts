import type { AgentEvent } from '../contracts/events.js';
import type { Message, Usage } from '../contracts/messages.js';
import type { ModelRequest } from '../contracts/provider.js';
import { ToolRegistry } from '../tools/registry.js';
import type { AgentOptions, RunResult } from './agent-options.js';
import { aborted, firstStop, repeatedCall, spentLimit, turnLimit, type RunProgress, type Stop } from './brakes.js';
import { Budget } from './budget.js';
import { callModel, contextChanges } from './call-model.js';
import { CacheWatch } from './cache-watch.js';
import { LeftOutNotes } from './left-out-notes.js';
import type { ContextChanges } from './explain-miss.js';
import { emptyReplyError } from './empty-reply.js';
import { HistoryRepairer } from './repair-history.js';
import { RepeatDetector } from './repeat-detector.js';
import { requestHandoff } from './request-handoff.js';
import { DEFAULT_RETRY } from './request-with-retry.js';
import { runToolCalls } from './run-tool-calls.js';
import { offerEvents } from './bridged-calls.js';
import { RunTotals } from './run-totals.js';
import { stopRun } from './stop-run.js';
import { warmUpWhileRequestIsOut } from './warm-up.js';

export type { AgentOptions, RunResult } from './agent-options.js';

/**
 * The loop. Sends the whole history and the tool schemas; a reply without tool calls is the
 * answer; otherwise the assistant message is appended as received, each call runs, one tool
 * message per call is appended in call order, and the model is asked again. The brakes (turn
 * limit, cost limit, repeated calls, abort) are checked between those steps.
 */
export async function* runAgent(options: AgentOptions): AsyncGenerator<AgentEvent, RunResult> {
  const registry = options.tools ?? new ToolRegistry();
  const signal = options.signal ?? new AbortController().signal;
  // One limit system: a run outside a tree keeps its cost limit in a budget of its own.
  const budget = options.budget ?? new Budget(options.maxCost !== undefined ? { maxCost: options.maxCost } : {});
  const run: RunProgress = { turns: 0, totals: new RunTotals(options.model, options.price, budget), signal };
  const { totals } = run;
  const atTurnLimit = turnLimit(options.maxTurns ?? 25);
  const overBudget = spentLimit(budget);
  const repeats = new RepeatDetector({ sameResult: options.repeatLimit ?? 3, changingResult: options.changingRepeatLimit ?? 8 });
  const stream = { provider: options.provider, signal, retry: options.retry ?? DEFAULT_RETRY };
  const request = (history: Message[]) => modelRequest(options, registry, history);
  const overflow = options.onContextOverflow;
  const onContextOverflow: AgentOptions['onContextOverflow'] = overflow && (async (history, context) => {
    const shrunk = await overflow(history, context);
    if (shrunk.holdTools) registry.holdSchemas();
    return shrunk;
  });
  const repairer = new HistoryRepairer();
  let messages = startingHistory(options);
  let lastUsage: Usage | undefined;
  const watch = options.cacheWatch ?? new CacheWatch({ ...(options.cacheTtlMs !== undefined ? { ttlMs: options.cacheTtlMs } : {}) });
  const leftOutNotes = options.leftOutNotes ?? new LeftOutNotes();
  // While a request is out: the price (the catalog) and the tools' code, needed once replies are in.
  const warmUp = warmUpWhileRequestIsOut([() => totals.price, ...registry.list().map((tool) => () => tool.load?.())]);
  const stop = (how: Stop) => {
    warmUp.stop();
    return stopRun(how, { messages, turns: run.turns, totals });
  };

  yield { type: 'run_start', provider: options.provider.name, model: options.model, tools: registry.names(), input: options.input, ...(options.images?.length ? { images: options.images } : {}) };
  const unpriceable = overBudget(run);
  if (unpriceable) return yield* stop(unpriceable);

  while (!atTurnLimit(run)) {
    const before = firstStop(run, aborted, overBudget);
    // The tree's turns spent: this agent ends as at its own turn limit, with a hand-off.
    if (before?.reason === 'turn_limit') break;
    if (before) return yield* stop(before);
    const turn = ++run.turns;
    yield { type: 'turn_start', turn };

    let changes: ContextChanges = {};
    if (options.prepareMessages) {
      const prepared = await options.prepareMessages(messages, { turn, model: options.model, signal, ...(lastUsage ? { usage: lastUsage } : {}) });
      messages = prepared.messages;
      if (prepared.holdTools) registry.holdSchemas();
      changes = contextChanges(prepared.events);
      yield* totals.contextEvents(prepared.events, turn);
      // A compaction's summary request may have been what crossed the limit.
      const spent = overBudget(run);
      if (spent) return yield* stop(spent);
    }
    const repaired = repairer.repair(messages);
    if (repaired.repairs.length) {
      messages = repaired.messages;
      yield { type: 'history_repaired', turn, repairs: repaired.repairs };
    }

    budget.countTurn();
    const call = yield* callModel(messages, { ...stream, model: options.model, turn, totals, request, onContextOverflow, onToolNamed: (name) => registry.prepare(name), cache: { watch, changes } });
    warmUp.replyIn();
    messages = call.messages;
    // The offer fixed for this request, when tool search deferred tools in it.
    yield* offerEvents(registry, turn);
    if (!call.ok) return yield* stop(call.stop);
    const { message, finishReason, leakedToolCalls } = call.response;
    lastUsage = call.response.usage;
    const note = leftOutNotes.note(call.response.leftOut, turn);
    if (note) yield note;
    const empty = emptyReplyError(call.response, options.provider.name);
    // An empty reply is kept out of the history: repairHistory would drop it from every later request (and resume).
    if (!empty) messages.push(message);
    yield { type: 'assistant_message', turn, message, finishReason, ...(leakedToolCalls ? { leakedToolCalls } : {}) };

    if (message.toolCalls.length === 0) {
      yield { type: 'turn_end', turn, messages: empty ? [] : [message] };
      return yield* stop(empty ? { reason: 'provider_error', error: empty } : { reason: options.plan ? 'plan' : 'answered', answer: message.content });
    }

    const toolMessages = yield* runToolCalls(message.toolCalls, {
      registry,
      turn,
      finishReason,
      signal,
      workspace: options.workspace ?? process.cwd(),
      ...(options.authorize ? { authorize: options.authorize } : {}),
      ...(options.relay ? { relay: options.relay } : {}),
      history: [...messages],
      totals,
    });
    messages.push(...toolMessages);
    yield { type: 'turn_end', turn, messages: [message, ...toolMessages] };
    const after = firstStop(run, aborted, () => repeatedCall(repeats, message.toolCalls, toolMessages));
    if (after) return yield* stop(after);
  }

  if (options.handoff === false) return yield* stop({ reason: 'turn_limit' });
  // The hand-off is the one request a turn limit always allows; a cost or token limit does not.
  const spent = overBudget(run);
  if (spent && spent.reason !== 'turn_limit') return yield* stop(spent);
  const handoff = yield* requestHandoff(request(messages), { ...stream, turn: run.turns, totals });
  return yield* stop(signal.aborted ? { reason: 'aborted' } : { reason: 'turn_limit', ...(handoff === undefined ? {} : { handoff }) });
}

/** The history of this run: the earlier conversation (copied), the system prompt when it has none, the new input. */
function startingHistory(options: AgentOptions): Message[] {
  const messages: Message[] = [...(options.messages ?? [])];
  if (options.system && messages[0]?.role !== 'system') messages.unshift({ role: 'system', content: options.system });
  messages.push({ role: 'user', content: options.input, ...(options.images?.length ? { images: options.images } : {}) });
  return messages;
}

function modelRequest(options: AgentOptions, registry: ToolRegistry, messages: Message[]): ModelRequest {
  return {
    model: options.model,
    messages: [...messages],
    tools: registry.schemas(),
    temperature: options.temperature ?? 0,
    ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
    ...(options.protocolErrorLimit !== undefined ? { protocolErrorLimit: options.protocolErrorLimit } : {}),
  };
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
