import { canonicalJson } from '../contracts/canonical-json.js';
import type { ToolCall } from '../contracts/messages.js';
import type { Provider } from '../contracts/provider.js';
import { createContextPolicy } from '../context/policy.js';
import type { RecordedResult, RecordedRun } from './recorded-run.js';
import { RecordedToolRegistry } from './recorded-tools.js';
import type { ReplaySetup } from './replay-run.js';
import { runRecordedPrompt } from './recorded-prompt.js';
import { READ_OUTPUT_TOOL } from '../context/read-output-name.js';
import type { Tool } from '../contracts/tool.js';

export type AgainstOutcome =
  | { diverged: false; turns: number }
  /** `recorded` and `now` describe the turn's calls (or the answer) on each side. */
  | { diverged: true; turn: number; recorded: string; now: string }
  /** The live run stopped before reaching the recording's end (a provider error, a brake). */
  | { diverged: 'stopped'; turn: number; reason: string; error?: string };

/**
 * Runs the recorded input against a live model, answering its tool calls with the recorded results
 * while they are the recorded calls (same names, same canonical arguments, in order), and reports
 * the first turn where they are not.
 */
export async function againstRun(recorded: RecordedRun, setup: ReplaySetup & { provider: Provider; model: string; signal?: AbortSignal }): Promise<AgainstOutcome> {
  const controller = new AbortController();
  setup.signal?.addEventListener('abort', () => controller.abort(), { once: true });
  const live = new Map<string, RecordedResult>();
  const registry = new RecordedToolRegistry(setup.parts.tools.list(), (call) => live.get(call.id));
  const context = createContextPolicy({ provider: setup.provider, registry, ...(registry.get(READ_OUTPUT_TOOL) ? {} : { offerReadOutput: (tool: Tool) => registry.register(tool) }), ...(setup.contextWindow !== undefined ? { contextWindow: setup.contextWindow } : {}) });
  const recordedTurns = Math.max(0, ...recorded.calls.keys());
  let outcome: AgainstOutcome | undefined;
  const decide = (found: AgainstOutcome) => {
    outcome = found;
    controller.abort();
  };
  await runRecordedPrompt(setup.parts, {
    input: recorded.input,
    provider: setup.provider,
    model: setup.model,
    tools: registry,
    context,
    // One turn past the recording's last: a model still calling tools there has diverged.
    maxTurns: recordedTurns + 1,
    handoff: false,
    ...(recorded.mode ? { mode: recorded.mode } : {}),
    signal: controller.signal,
    // Called as each event is published, before the loop runs the turn's calls: their results are in place in time.
    onEvent: (event) => {
      setup.onEvent?.(event);
      if (event.agent || outcome) return;
      if (event.type === 'assistant_message') {
        const expected = recorded.calls.get(event.turn);
        const calls = event.message.toolCalls;
        if (!expected || !sameCalls(expected, calls)) return decide({ diverged: true, turn: event.turn, recorded: describeCalls(expected), now: describeCalls(calls) });
        if (calls.length === 0) return void (outcome = { diverged: false, turns: event.turn });
        calls.forEach((call, index) => {
          const result = recorded.results.get(expected[index]!.id);
          if (result) live.set(call.id, result);
        });
      }
      if (event.type === 'stop') outcome = { diverged: 'stopped', turn: event.turns, reason: event.reason, ...(event.error ? { error: event.error } : {}) };
    },
  });
  return outcome ?? { diverged: 'stopped', turn: 0, reason: 'aborted' };
}

function callKey(call: ToolCall): string {
  try {
    return `${call.name} ${canonicalJson(JSON.parse(call.arguments))}`;
  } catch {
    return `${call.name} ${call.arguments}`;
  }
}

function sameCalls(expected: ToolCall[], calls: ToolCall[]): boolean {
  return expected.length === calls.length && expected.every((call, index) => callKey(call) === callKey(calls[index]!));
}

function describeCalls(calls: ToolCall[] | undefined): string {
  if (!calls) return '(no such turn: the recorded run had ended)';
  if (calls.length === 0) return '(an answer, no tool calls)';
  const text = calls.map(callKey).join('; ');
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}
