import type { ToolCallStatus } from '../contracts/tool.js';
import type { Citation, Usage } from '../contracts/messages.js';
import type { SessionOutcome } from './session-outcome.js';
import type { TraceGoal } from './goal-notes.js';

/**
 * What the trace page shows, as plain JSON embedded in the page. Every message of the session is
 * stored once in `messages`; a request names its messages by id ranges, so a 1,000-turn session
 * does not repeat its history 1,000 times.
 */
export interface TraceData {
  session: { id: string; workspace: string; createdAt: string; file: string };
  /** The task (the first prompt) and how the session ended: its answer, or why it stopped. */
  outcome: SessionOutcome;
  /** The model's context window in tokens, and where that figure came from; undefined: unknown. */
  contextWindow?: number;
  contextWindowSource: string;
  /**
   * Where the requests come from: `recorded`, the session's `request` records (exactly what was
   * sent: capped and stubbed outputs included); `rebuilt`, the history records (older files).
   */
  requests: 'recorded' | 'rebuilt';
  messages: TraceMessage[];
  /** The main agent's turns in order; a subagent's turns hang under the `task` call that ran it. */
  turns: TraceTurn[];
  totals: TraceTotals;
  /** What could not be read: skipped lines, malformed records, a torn last line. */
  skipped: { count: number; notes: string[] };
  /** The session's goals (docs/goals.md): caps, each judge verdict with its evidence and checks, the end. */
  goals?: TraceGoal[];
}

export interface TraceMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  tokens: number;
  name?: string;
  isError?: boolean;
  reasoning?: string;
  toolCalls?: { id: string; name: string; arguments: string }[];
}

/** A request's messages: runs of consecutive message ids, `[firstId, count]`. */
export type IdRuns = Array<[number, number]>;

export interface TraceTurn {
  /** 1-based position in the session (over all runs), for the main agent; within its run for a subagent. */
  seq: number;
  run: number;
  /** The loop's turn number within its run. */
  turn: number;
  agent: string;
  model: string;
  /**
   * The messages the model was sent (after compaction), and their estimated tokens. `sent`: taken
   * from the turn's `request` record, with the number of tool schemas it offered; otherwise rebuilt.
   */
  request: { ids: IdRuns; count: number; tokens: number; sent?: true; tools?: number };
  /** Reported by the provider for this turn's request. */
  usage?: Usage;
  /** That request's prompt tokens read from the provider's cache, written to it and uncached; `why` when it missed. */
  cache?: { read: number; written: number; uncached: number; why?: string };
  /** Other requests billed to this turn: compaction summaries, a hand-off. */
  extraUsage?: Usage;
  cost?: number;
  /** The reply; its text is the message `messageId` of `messages` once the turn ended (stored once). */
  reply?: { text?: string; messageId?: number; reasoning?: string; finishReason: string; toolCalls: number; citations?: Citation[] };
  tools: TraceToolCall[];
  retries: { attempt: number; delayMs: number; error: string }[];
  repairs: string[];
  compactions: TraceCompaction[];
  notes: string[];
  /**
   * Tool search: the schema tokens its deferral kept out of this request (the offer is fixed, so
   * every request from the deferral on saves as much), the tools it deferred (on the turn it did),
   * and the searches made in this turn with what each found and newly loaded.
   */
  toolSearch?: { savedTokens: number; deferred?: string[]; searches?: Array<{ query: string; results: string[]; loaded: string[] }> };
  /** Set when the run stopped during or right after this turn. */
  stop?: { reason: string; error?: string };
  /** False when the turn never ended (the process died or the request failed). */
  complete: boolean;
}

export interface TraceToolCall {
  id: string;
  name: string;
  arguments: string;
  status?: ToolCallStatus;
  isError?: boolean;
  /** The result; once the turn ended, the tool message `outputId` of `messages` holds it instead (stored once). */
  output?: string;
  outputId?: number;
  durationMs?: number;
  /** How the permission check went, from the status. */
  permission: 'allowed' | 'denied' | 'not run';
  /** How the auto permission mode decided it: tier, verdict, reason, and the reviewer's model, input digest and cost. */
  review?: TraceReview;
  /** The turns of the subagent this call started (a `task` call). */
  subagent?: { agent: string; turns: TraceTurn[] };
}

export interface TraceReview {
  tier: string;
  verdict: string;
  reason: string;
  reviewer?: string;
  digest?: string;
  cost?: number;
  handedBack?: boolean;
}

export interface TraceCompaction {
  tokensBefore: number;
  tokensAfter: number;
  dropped: number;
  summary: string;
  fallback?: string;
  /** Ids of the messages replaced, and of what took their place. */
  replaced: number[];
  inserted: number[];
}

export interface TraceTotals {
  runs: number;
  turns: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  /** US dollars; undefined when no request's price is known. */
  cost?: number;
  toolCalls: number;
  toolErrors: number;
  retries: number;
  compactions: number;
  subagentTurns: number;
}
