import type { AssistantMessage, ImageRef, Message, ToolCall, ToolMessage, Usage } from './messages.js';
import type { LeftOut } from './provider.js';

/** Why the context policy rewrote the prompt's prefix: the saving pays for the miss, the cache had expired, or the window. */
export type RewriteReason = 'cost' | 'cold_cache' | 'window' | 'overflow';
import type { PermissionReview, ToolCallStatus } from './tool.js';

/** Why a run ended. Exactly one `stop` event carries it. */
export type StopReason = 'answered' | 'turn_limit' | 'repeated_call' | 'aborted' | 'provider_error' | 'cost_limit' | 'token_limit' | 'plan';

/** What one agent of a tree spent (its own requests, not its children's). */
export interface AgentSpend {
  /** The agent's path: "main", "main/task-2". */
  agent: string;
  turns: number;
  usage: Usage;
  cost?: number;
}

/**
 * Everything the loop does, as plain JSON. Every front end, session files and tests consume these
 * same objects.
 */
export type AgentEvent = AgentEventBody & {
  /** Set on the events of a subagent, passed on through its parent's stream: its path, e.g. "main/task-2". */
  agent?: string;
};

type AgentEventBody =
  | { type: 'run_start'; provider: string; model: string; tools: string[]; input: string; images?: ImageRef[] }
  /** The context policy changed the history before a request (truncation, compaction). */
  | {
      type: 'compaction';
      turn: number;
      tokensBefore: number;
      tokensAfter: number;
      summary: string;
      dropped: number;
      /** Which messages of the history (as it was just before) were replaced. */
      replaced?: { from: number; count: number };
      /** What took their place, in order: `history.splice(from, count, ...inserted)` rebuilds it. */
      inserted?: Message[];
      /** Set when the summary request failed and the oldest turns were dropped instead: why. */
      fallback?: string;
      /** The summary request's tokens (reported, or estimated); the loop adds them to the run's usage and cost. */
      usage?: Usage;
    }
  /**
   * A rewrite point: older tool outputs became stubs in one batch (the cost model found the saving
   * pays for the one cache miss, the cache was cold anyway, or the window required it). Between
   * rewrite points every request is the previous one plus new messages.
   */
  | {
      type: 'context_rewrite';
      turn: number;
      reason: RewriteReason;
      /** Which messages of the history (as it was just before) became which stub: `history[at] = message` rebuilds it. */
      stubbed: Array<{ at: number; message: ToolMessage }>;
      /** Tokens the stubs take out of every later request. */
      savedTokens: number;
      /** Tokens from the first stub to the end: sent past the cached prefix once. */
      rewrittenTokens: number;
    }
  /** The history broke a provider rule (e.g. a resumed call with no result) and was fixed before the request. */
  | { type: 'history_repaired'; turn: number; repairs: string[] }
  /** Something about the context the user should know (e.g. a server silently truncating prompts). */
  | {
      type: 'context_warning';
      turn: number;
      message: string;
      estimatedTokens?: number;
      reportedTokens?: number;
      /** The window the policy uses from now on, when the provider revealed a smaller one. */
      contextWindow?: number;
      /** Parts of earlier replies the requests leave out (another provider, model or wire made them); given once per run. */
      leftOut?: LeftOut[];
      /** The setting that fixes it (`contextWindow`: tell the agent the server's real window); a front end names it in its own terms. */
      setting?: 'contextWindow';
    }
  | { type: 'turn_start'; turn: number }
  | { type: 'text_delta'; turn: number; text: string }
  | { type: 'reasoning_delta'; turn: number; text: string }
  /** `leakedToolCalls`: calls recovered from the reply's text (the server did not parse them). */
  | { type: 'assistant_message'; turn: number; message: AssistantMessage; finishReason: string; leakedToolCalls?: number }
  /** A text-protocol reply (prompt-JSON) could not be read; the model is told why. `count` is the run's total. */
  | { type: 'protocol_error'; turn: number; reason: string; error: string; count: number }
  /** A call's name is known and its arguments are streaming: a UI can show it before it runs. Paired with `tool_call_start` by id. */
  | { type: 'tool_call_delta'; turn: number; index: number; id: string; name: string }
  | { type: 'tool_call_start'; turn: number; call: ToolCall; via?: string }
  /**
   * Tool search: `deferred` when the offer is fixed with tools left out of it (the tokens of the
   * schemas that would have been sent, of those sent, and the difference, saved on every request);
   * `search` for each tool_search call, what it found and which of those it newly loaded.
   */
  | { type: 'tool_search'; turn: number; action: 'deferred'; deferred: string[]; alwaysLoaded?: string[]; fullTokens: number; offeredTokens: number; savedTokens: number }
  | { type: 'tool_search'; turn: number; action: 'search'; query: string; results: string[]; loaded: string[] }
  /** How the auto permission mode decided a call (tier, reviewer, input digest, verdict, reason, cost); just before its `tool_call_end`. */
  | ({ type: 'permission_review'; turn: number; id: string; name: string } & PermissionReview)
  | {
      type: 'tool_call_end';
      turn: number;
      id: string;
      name: string;
      status: ToolCallStatus;
      isError: boolean;
      output: string;
      durationMs: number;
      images?: ImageRef[];
    }
  /**
   * `cache`: this request's prompt tokens read from the provider's cache, written to it and
   * uncached, and for a miss `why` (the first thing that differs from the previous request).
   */
  | { type: 'usage'; turn: number; usage: Usage; total: Usage; cache?: { read: number; written: number; uncached: number; why?: string } }
  /** A turn is complete: the messages it appended to the history (assistant, then tool results in call order). */
  | { type: 'turn_end'; turn: number; messages: Message[] }
  | { type: 'retry'; attempt: number; delayMs: number; error: string }
  | { type: 'handoff'; text: string }
  | {
      type: 'stop';
      reason: StopReason;
      /** The final reply's text; only when reason is `answered` or `plan`. */
      answer: string | null;
      /** A planning run's result (reason `plan`): the plan, as the final reply gave it. */
      plan?: string;
      /** The model's summary of what is done and what remains, when a turn limit was hit. */
      handoff?: string;
      /** What went wrong, for `provider_error`, `repeated_call` and `cost_limit`. */
      error?: string;
      turns: number;
      usage: Usage;
      /** US dollars spent, when the model's price is known (an estimate: list prices). */
      cost?: number;
      /** With subagents: `usage` and `cost` are the whole tree's, and this is what each agent spent. */
      agents?: AgentSpend[];
    };

export type AgentEventType = AgentEvent['type'];
