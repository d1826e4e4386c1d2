import type { AssistantMessage, ToolCall, Usage } from './messages.js';
import type { ToolCallStatus } from '../tools/registry.js';

/** Why a run ended. Exactly one `stop` event carries it. */
export type StopReason = 'answered' | 'turn_limit' | 'repeated_call' | 'aborted' | 'provider_error' | 'cost_limit';

/**
 * Everything the loop does, as plain JSON. The terminal UI, `--json` output, session files and
 * tests all consume these same objects.
 */
export type AgentEvent =
  | { type: 'run_start'; provider: string; model: string; tools: string[]; input: string }
  /** The context policy changed the history before a request (truncation, compaction). */
  | { type: 'compaction'; turn: number; tokensBefore: number; tokensAfter: number; summary: string; dropped: number }
  | { type: 'turn_start'; turn: number }
  | { type: 'text_delta'; turn: number; text: string }
  | { type: 'reasoning_delta'; turn: number; text: string }
  | { type: 'assistant_message'; turn: number; message: AssistantMessage; finishReason: string }
  | { type: 'tool_call_start'; turn: number; call: ToolCall }
  | {
      type: 'tool_call_end';
      turn: number;
      id: string;
      name: string;
      status: ToolCallStatus;
      isError: boolean;
      output: string;
      durationMs: number;
    }
  | { type: 'usage'; turn: number; usage: Usage; total: Usage }
  | { type: 'retry'; attempt: number; delayMs: number; error: string }
  | { type: 'handoff'; text: string }
  | {
      type: 'stop';
      reason: StopReason;
      /** The final reply's text; only when reason is `answered`. */
      answer: string | null;
      /** The model's summary of what is done and what remains, when a turn limit was hit. */
      handoff?: string;
      /** What went wrong, for `provider_error`, `repeated_call` and `cost_limit`. */
      error?: string;
      turns: number;
      usage: Usage;
      /** US dollars spent, when the model's price is known (an estimate: list prices). */
      cost?: number;
    };

export type AgentEventType = AgentEvent['type'];
