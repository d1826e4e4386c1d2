import { withSubagents, type SubagentOptions } from '../agents/subagents.js';
import { createContextPolicy } from '../context/policy.js';
import type { AgentOptions } from '../core/agent-options.js';
import { runAgent } from '../core/loop.js';
import type { Tool } from '../contracts/tool.js';
import { withSystemPrompt } from '../session/session-store.js';
import type { RecordedRun } from './recorded-run.js';
import { RecordedToolRegistry } from './recorded-tools.js';
import { recordedSummaries, ReplayProvider, type ReplayDifference } from './replay-provider.js';
import { READ_OUTPUT_TOOL } from '../context/read-output-name.js';

/** What the current agent would send, apart from the model's replies: built the way a run builds it. */
export interface ReplaySetup {
  /** The system prompt as the current code builds it (memory, skills, plan mode). */
  system: string;
  /** The current tools (their schemas are what the requests offer). */
  tools: Tool[];
  contextWindow?: number;
  maxTurns: number;
  temperature: number;
  workspace: string;
  /** The redaction the session file was written with (the current environment's secrets). */
  redact: (text: string) => string;
  subagents?: SubagentOptions;
  plan?: boolean;
}

export type ReplayOutcome = { identical: true; requests: number; turns: number } | { identical: false; difference: ReplayDifference };

/**
 * Runs the recorded run again through the real loop, offline: the model's replies and the tool
 * results come from the recording, everything else (system prompt, tool schemas, context policy)
 * from the current code. Each request is compared with the recorded one; the first difference
 * ends the replay.
 */
export async function replayRun(recorded: RecordedRun, setup: ReplaySetup): Promise<ReplayOutcome> {
  const controller = new AbortController();
  const provider = new ReplayProvider(recorded, setup.redact, () => controller.abort());
  const registry = new RecordedToolRegistry(setup.tools, (call) => recorded.results.get(call.id));
  const context = createContextPolicy({
    provider: recordedSummaries(recorded),
    registry,
    // The CLI's tools hold read_output already (it is offered from the start).
    ...(registry.get(READ_OUTPUT_TOOL) ? {} : { offerReadOutput: (tool: Tool) => registry.register(tool) }),
    ...(setup.contextWindow !== undefined ? { contextWindow: setup.contextWindow } : {}),
    rewriteAt: (turn) => recorded.rewrites.get(turn),
  });
  const options: AgentOptions = {
    provider,
    model: recorded.model,
    input: recorded.input,
    // A continued session's later run starts from the conversation the file holds, under today's system prompt.
    ...(recorded.history ? { messages: withSystemPrompt(recorded.history, setup.system) } : {}),
    tools: registry,
    system: setup.system,
    maxTurns: setup.maxTurns,
    temperature: setup.temperature,
    workspace: setup.workspace,
    signal: controller.signal,
    prepareMessages: context.prepareMessages,
    onContextOverflow: context.onContextOverflow,
    contextForAgent: context.contextForAgent,
    ...(setup.plan ? { plan: true } : {}),
  };
  let turns = 0;
  for await (const event of runAgent(setup.subagents ? withSubagents(options, setup.subagents) : options)) {
    if (event.type === 'stop') turns = event.turns;
  }
  if (provider.difference) return { identical: false, difference: provider.difference };
  const missing = recorded.exchanges[provider.sent];
  if (missing) {
    const difference = { request: provider.sent + 1, turn: missing.turn, path: '(request)', recorded: `a request with ${missing.request.messages.length} messages`, now: '(none: the replay stopped before it)' };
    return { identical: false, difference };
  }
  return { identical: true, requests: provider.sent, turns };
}
