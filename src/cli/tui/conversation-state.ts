import type { AgentEvent } from '../../contracts/events.js';
import { addUsage, emptyUsage, type Message, type Usage } from '../../contracts/messages.js';
import type { InteractiveServices } from './services.js';
import type { Spent } from '../../session/session-spent.js';
import type { StatusInfo } from './status-line.js';

/** What the session knows about its conversation between turns: history, model and the running totals. */
export class ConversationState {
  messages: Message[];
  model: string;
  usage: Usage = emptyUsage();
  /** Model requests in the current (or last) run. */
  turn = 0;
  /** Tokens of the latest request and its reply: how full the context is. */
  private contextTokens: number | undefined;
  /** What a resumed session had spent before this process: counted on top, never re-priced. */
  private carriedCost: number | undefined;
  /** A smaller window the provider revealed (from a context warning). */
  private learnedWindow: number | undefined;
  /**
   * The costs the core recorded on each request's `usage` event (priced at the model it was sent
   * to, so a /model switch does not reprice what was spent); undefined once one had none.
   */
  private pricedCost: number | undefined = 0;
  private requests = 0;

  constructor(
    model: string,
    messages: Message[],
    private readonly services: Partial<Pick<InteractiveServices, 'cost' | 'contextWindow' | 'spentSoFar'>>,
  ) {
    this.model = model;
    this.messages = messages;
    const spent = services.spentSoFar?.();
    if (spent) this.carry(spent);
  }

  /** A resumed session (--resume, --continue, /resume): its tokens and cost are the totals from here on. */
  carry(spent: Spent): void {
    this.usage = spent.usage;
    this.requests = 0;
    this.pricedCost = 0;
    this.carriedCost = spent.cost;
  }

  /** A run begins: its turns are counted from one. */
  startRun(): void {
    this.turn = 0;
  }

  /** Follows one event of a run. */
  track(event: AgentEvent): void {
    // A subagent's requests count toward the spend, never toward this conversation's turn or context.
    if (event.type === 'usage') this.countRequest(event.usage, event.cost, event.agent === undefined);
    if (event.agent) return;
    if (event.type === 'turn_start') this.turn = event.turn;
    if (event.type === 'context_warning' && event.contextWindow) this.learnedWindow = event.contextWindow;
  }

  /** /clear: a new conversation, counted from zero. */
  clear(messages: Message[]): void {
    this.replaceMessages(messages);
    this.usage = emptyUsage();
    this.turn = 0;
    this.requests = 0;
    this.pricedCost = 0;
    this.carriedCost = undefined;
  }

  /** Replaces the history (/clear, /compact, /resume): the context fill is unknown until the next request. */
  replaceMessages(messages: Message[]): void {
    this.messages = messages;
    this.contextTokens = undefined;
  }

  private countRequest(usage: Usage, cost: number | undefined, ownContext: boolean): void {
    this.usage = addUsage(this.usage, usage);
    this.requests++;
    this.pricedCost = cost === undefined || this.pricedCost === undefined ? undefined : this.pricedCost + cost;
    if (ownContext) this.contextTokens = usage.inputTokens + usage.outputTokens;
  }

  cost(): number | undefined {
    // Before the first request: what a resumed session spent, else $0 when the current model has a price.
    if (this.requests === 0) return this.carriedCost ?? this.services.cost?.(this.model, emptyUsage());
    if (this.pricedCost === undefined) return undefined;
    return this.pricedCost + (this.carriedCost ?? 0);
  }

  status(maxTurns: number, state: string | undefined): StatusInfo {
    const window = this.learnedWindow ?? this.services.contextWindow?.(this.model);
    const cost = this.cost();
    return {
      model: this.model,
      total: this.usage,
      ...(this.contextTokens !== undefined ? { contextTokens: this.contextTokens } : {}),
      ...(window !== undefined ? { contextWindow: window } : {}),
      ...(cost !== undefined ? { costUsd: cost } : {}),
      turn: this.turn,
      maxTurns,
      ...(state ? { state } : {}),
    };
  }
}
