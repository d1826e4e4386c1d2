import type { AgentEvent, StopReason } from '../contracts/events.js';
import type { ImageRef, Message } from '../contracts/messages.js';
import type { Authorize } from '../contracts/tool.js';
import type { AgentOptions, RunResult } from '../core/agent-options.js';
import type { CacheWatch } from '../core/cache-watch.js';
import type { LeftOutNotes } from '../core/left-out-notes.js';
import { runAgent } from '../core/loop.js';
import { systemPromptFor } from '../core/system-prompt.js';
import { continueAfterStop } from '../hooks/stop-hook.js';
import type { ConversationParts, RunWatcher } from './conversation-parts.js';
import type { ConversationNotice } from './conversation-types.js';
import type { SessionFile } from './session-file.js';

export interface RoundsContext {
  parts: ConversationParts;
  authorize: Authorize;
  signal: AbortSignal;
  cacheWatch: CacheWatch;
  leftOutNotes: LeftOutNotes;
  watcher: RunWatcher | undefined;
  /** The session file as it is now (a lazy one appears at the first event). */
  file(): SessionFile | undefined;
  publish(event: AgentEvent | ConversationNotice): void;
  history(): Message[] | undefined;
  setHistory(messages: Message[]): void;
}

export interface FirstRound {
  input: string;
  model: string | undefined;
  images: ImageRef[];
  planning: boolean;
  /** Refuse every tool call with this reason (a goal's wrap-up turn). */
  refuseTools?: string;
  /** This prompt's own permission check (default: the conversation's). */
  authorize?: Authorize;
}

export interface RoundsOutcome {
  reason: StopReason;
  plan?: string;
  answer?: string | null;
}

/**
 * One prompt's runs: the agent built from the parts (subagents, request records, spans,
 * checkpoints around it), its events published in order, then the Stop hooks: a block sends the
 * agent back to work with its reason, a bounded number of times (hooks/stop-hook.ts).
 */
export async function runRounds(context: RoundsContext, first: FirstRound): Promise<RoundsOutcome> {
  const { parts, signal } = context;
  let input: string | undefined = first.input;
  let outcome: RoundsOutcome = { reason: 'aborted' };
  for (let round = 0; input !== undefined; round++) {
    outcome = await runOnce(context, { ...first, input, images: round === 0 ? first.images : [] });
    if (signal.aborted) break;
    input = await continueAfterStop(parts.hooks, outcome.reason, round, parts.warn);
    if (input !== undefined) context.publish({ type: 'stop_hook_continue', round: round + 1, input });
  }
  return outcome;
}

async function runOnce(context: RoundsContext, round: FirstRound): Promise<RoundsOutcome> {
  const { parts } = context;
  const history = context.history();
  const options: AgentOptions = {
    provider: parts.provider,
    model: round.model ?? parts.model,
    input: round.input,
    ...(round.images.length ? { images: round.images } : {}),
    tools: parts.tools,
    system: systemPromptFor(parts.system, round.planning),
    ...(round.planning ? { plan: true } : {}),
    ...(history ? { messages: historyFor(history, parts.system, round.planning) } : {}),
    maxTurns: parts.maxTurns,
    ...(parts.handoff === false ? { handoff: false } : {}),
    temperature: parts.temperature,
    workspace: parts.workspace,
    authorize: round.refuseTools !== undefined ? refuseEvery(round.refuseTools) : (round.authorize ?? context.authorize),
    signal: context.signal,
    cacheTtlMs: parts.cacheTtlMs,
    cacheWatch: context.cacheWatch,
    leftOutNotes: context.leftOutNotes,
    ...(parts.context.prepareMessages ? { prepareMessages: parts.context.prepareMessages } : {}),
    ...(parts.context.onContextOverflow ? { onContextOverflow: parts.context.onContextOverflow } : {}),
    ...(parts.context.contextForAgent ? { contextForAgent: parts.context.contextForAgent } : {}),
    ...(parts.maxCost !== undefined ? { maxCost: parts.maxCost } : {}),
  };
  // The task tool's code loads only when subagents are on.
  const withTask = parts.subagents ? (await import('../agents/subagents.js')).withSubagents(options, parts.subagents) : options;
  // Only this conversation's requests are stored (children got the provider as it was): what a replay compares.
  const recorded = parts.session.kind === 'none' ? withTask : { ...withTask, provider: (await import('../session/recording-provider.js')).recordingRequests(withTask.provider, (request) => context.file()?.recordRequest(request)) };
  const run = runAgent(recorded);
  const watched = context.watcher ? context.watcher.wrap(run) : run;
  const events = await withCheckpoints(context, watched);
  let outcome: RoundsOutcome = { reason: 'aborted' };
  let step: IteratorResult<AgentEvent, RunResult> = await events.next();
  for (; !step.done; step = await events.next()) {
    context.publish(step.value);
    if (step.value.type === 'stop' && step.value.agent === undefined) {
      outcome = { reason: step.value.reason, answer: step.value.answer, ...(step.value.plan !== undefined ? { plan: step.value.plan } : {}) };
    }
  }
  context.setHistory(step.value.messages);
  return outcome;
}

/** Checkpoints, kept in the session: only when one is saved (their code and git load at the first snapshot). */
async function withCheckpoints(context: RoundsContext, events: AsyncGenerator<AgentEvent, RunResult>): Promise<AsyncGenerator<AgentEvent, RunResult>> {
  const { parts } = context;
  if (parts.session.kind === 'none' || parts.checkpoints === false) return events;
  const { withCheckpoints: wrap } = await import('../checkpoints/with-checkpoints.js');
  return wrap(events, {
    workspace: parts.workspace,
    session: () => context.file(),
    warn: parts.warn,
    env: parts.env,
    ...(parts.mayChangeFiles ? { mayChangeFiles: parts.mayChangeFiles } : {}),
    ...(parts.writes ? { writes: parts.writes } : {}),
  });
}

/** The history with the system prompt of this run's mode: entering or leaving plan mode swaps it (a system prompt of someone else's stays). */
function historyFor(messages: Message[], system: string, planning: boolean): Message[] {
  const first = messages[0];
  const wanted = systemPromptFor(system, planning);
  const ours = first?.role === 'system' && (first.content === systemPromptFor(system, true) || first.content === system);
  return ours && first.content !== wanted ? [{ role: 'system', content: wanted }, ...messages.slice(1)] : messages;
}

/** A policy that refuses every call, read-only ones included, with one reason. */
function refuseEvery(reason: string): Authorize {
  const refuse: Authorize = async () => ({ allowed: false, reason });
  refuse.checksEveryCall = true;
  return refuse;
}
