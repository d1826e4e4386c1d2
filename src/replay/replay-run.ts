import type { AgentEvent } from '../contracts/events.js';
import { createContextPolicy } from '../context/policy.js';
import type { ConversationParts } from '../conversation/conversation-parts.js';
import type { Tool } from '../contracts/tool.js';
import type { RecordedRun } from './recorded-run.js';
import { RecordedToolRegistry } from './recorded-tools.js';
import { runRecordedPrompt } from './recorded-prompt.js';
import { recordedSummaries, ReplayProvider, type ReplayDifference } from './replay-provider.js';
import { READ_OUTPUT_TOOL } from '../context/read-output-name.js';

/** What the current agent would send, apart from the model's replies: built the way a run builds it. */
export interface ReplaySetup {
  /**
   * The conversation's parts as the current code and settings build them (the CLI's
   * `conversationParts`): the system prompt (memory, skills), the tools whose schemas the requests
   * offer, limits, subagents, plan mode, the cache TTL. The replay swaps in the recording's replies
   * and tool results and runs the prompt through the same conversation core.
   */
  parts: ConversationParts;
  contextWindow?: number;
  /** The redaction the session file was written with (the current environment's secrets). */
  redact: (text: string) => string;
  /** Each event of the replayed run, as the conversation publishes it (progress, a parity check). */
  onEvent?: (event: AgentEvent) => void;
}

export type ReplayOutcome = { identical: true; requests: number; turns: number } | { identical: false; difference: ReplayDifference };

/**
 * Runs the recorded run again through the conversation core, offline: the model's replies and the
 * tool results come from the recording, everything else (system prompt, tool schemas, context
 * policy) from the current code. Each request is compared with the recorded one; the first
 * difference ends the replay.
 */
export async function replayRun(recorded: RecordedRun, setup: ReplaySetup): Promise<ReplayOutcome> {
  const controller = new AbortController();
  const provider = new ReplayProvider(recorded, setup.redact, () => controller.abort());
  const registry = new RecordedToolRegistry(setup.parts.tools.list(), (call) => recorded.results.get(call.id));
  const context = createContextPolicy({
    provider: recordedSummaries(recorded),
    registry,
    // The CLI's tools hold read_output already (it is offered from the start).
    ...(registry.get(READ_OUTPUT_TOOL) ? {} : { offerReadOutput: (tool: Tool) => registry.register(tool) }),
    ...(setup.contextWindow !== undefined ? { contextWindow: setup.contextWindow } : {}),
    rewriteAt: (turn) => recorded.rewrites.get(turn),
  });
  let turns = 0;
  await runRecordedPrompt(setup.parts, {
    input: recorded.input,
    provider,
    model: recorded.model,
    tools: registry,
    context,
    ...(recorded.history ? { history: recorded.history } : {}),
    ...(recorded.mode ? { mode: recorded.mode } : {}),
    signal: controller.signal,
    onEvent: (event) => {
      if (event.type === 'stop' && event.agent === undefined) turns = event.turns;
      setup.onEvent?.(event);
    },
  });
  if (provider.difference) return { identical: false, difference: provider.difference };
  const missing = recorded.exchanges[provider.sent];
  if (missing) {
    const difference = { request: provider.sent + 1, turn: missing.turn, path: '(request)', recorded: `a request with ${missing.request.messages.length} messages`, now: '(none: the replay stopped before it)' };
    return { identical: false, difference };
  }
  return { identical: true, requests: provider.sent, turns };
}
