import type { AgentEvent, AgentSpend, StopReason } from '../contracts/events.js';
import type { ImageRef, Message, Usage } from '../contracts/messages.js';
import type { Provider } from '../contracts/provider.js';
import type { ProviderError } from '../contracts/provider-error.js';
import type { Authorize } from '../contracts/tool.js';
import type { ModelPrice } from '../providers/pricing.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Budget } from './budget.js';
import type { EventRelay } from './event-relay.js';
import type { RetryPolicy } from './request-with-retry.js';
import type { CacheWatch } from './cache-watch.js';
import type { LeftOutNotes } from './left-out-notes.js';

export interface AgentOptions {
  provider: Provider;
  model: string;
  /** The new user input for this run. */
  input: string;
  /** Images attached to the new input (see src/images for loading and fitting them). */
  images?: ImageRef[];
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
  /**
   * Unreadable replies in a row (prompt-JSON) that stop the run as a repeated failure (default 4).
   * Passed to the provider with each request: the prompt-JSON provider re-asks within one turn.
   */
  protocolErrorLimit?: number;
  /** A planning run (plan permission mode): its final reply is the plan, and the run stops with reason `plan`. */
  plan?: boolean;
  /** At the turn limit, ask once more without tools for a hand-off (default true). */
  handoff?: boolean;
  signal?: AbortSignal;
  workspace?: string;
  /** Permission check for calls that need approval; without it they run. */
  authorize?: Authorize;
  retry?: RetryPolicy;
  /** US dollars the run may spend (list prices; estimated usage when the server reports none). Passing it stops the run. */
  maxCost?: number;
  /** How long the provider keeps a prompt cache (default 5 minutes): a longer pause is named as a cache miss's reason. */
  cacheTtlMs?: number;
  /** Explains prompt-cache misses; pass the same one to each run of a conversation so a new task's first request is compared with the last. */
  cacheWatch?: CacheWatch;
  /** Notes what the requests leave out of the history; pass the same one to each run of a conversation so a note is given once. */
  leftOutNotes?: LeftOutNotes;
  /** The model's price, when the built-in table does not know it. */
  price?: ModelPrice;
  /**
   * The agent tree's budget node for this run (see withSubagents): consulted before every request
   * and charged with every request's tokens and cost, so limits hold across parent and children.
   */
  budget?: Budget;
  /** Where this run's subagents push their events; the loop passes them on in its own stream. */
  relay?: EventRelay;
  /**
   * Runs before every request (the context policy: truncation, compaction). The messages it
   * returns become the history from then on; the events it returns are yielded as they are.
   */
  prepareMessages?: (
    messages: Message[],
    context: { turn: number; model: string; signal: AbortSignal; /** What the server reported for the previous request. */ usage?: Usage },
  ) => Promise<PreparedMessages>;
  /**
   * Called once per turn when the provider rejects the prompt as too long (kind
   * `context_length`): the messages it returns replace the history and the request is retried once.
   */
  onContextOverflow?: (
    messages: Message[],
    context: { turn: number; model: string; signal: AbortSignal; error: ProviderError },
  ) => Promise<PreparedMessages>;
  /**
   * The context hooks for another agent of the tree (a subagent), with state of their own; given
   * that agent's tools, read-only. Without it a subagent shares `prepareMessages` and
   * `onContextOverflow` as they are (fine for stateless ones).
   */
  contextForAgent?: (tools: ToolRegistry) => AgentContextHooks;
}

/** The context policy's part of the options, for one agent. */
export type AgentContextHooks = Pick<AgentOptions, 'prepareMessages' | 'onContextOverflow' | 'contextForAgent'>;

export interface PreparedMessages {
  messages: Message[];
  events?: AgentEvent[];
  /** A point where tools that came or went may join the offer: the loop holds the registry's schemas anew. */
  holdTools?: boolean;
}

export interface RunResult {
  answer: string | null;
  stopReason: StopReason;
  handoff?: string;
  error?: string;
  messages: Message[];
  usage: Usage;
  turns: number;
  /** Replies a text protocol (prompt-JSON) could not read (each re-asked by the provider); absent when none. */
  protocolErrors?: number;
  /** US dollars spent, when the model's price is known. */
  cost?: number;
  /** With subagents: `usage` and `cost` cover the tree, and this is what each agent spent. */
  agents?: AgentSpend[];
}
