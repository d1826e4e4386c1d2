import type { AgentEvent } from '../../contracts/events.js';
import { addUsage, emptyUsage, type Message, type Usage } from '../../contracts/messages.js';
import type { InteractiveServices } from './services.js';
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
  /** Summed from usage that carries a `cost` (some gateways report one); undefined when none does. */
  private reportedCost: number | undefined;
  /** A smaller window the provider revealed (from a context warning). */
  private learnedWindow: number | undefined;
  /**
   * Each request priced at the model it was sent to, so a /model switch does not reprice what
   * was already spent; undefined once a request could not be priced.
   */
  private pricedCost: number | undefined = 0;
  private requests = 0;

  constructor(
    model: string,
    messages: Message[],
    private readonly services: Pick<InteractiveServices, 'cost' | 'contextWindow'>,
  ) {
    this.model = model;
    this.messages = messages;
  }

  /** A run begins: its turns are counted from one. */
  startRun(): void {
    this.turn = 0;
  }

  /** Follows one event of a run. */
  track(event: AgentEvent): void {
    // A subagent's requests count toward the spend, never toward this conversation's turn or context.
    if (event.type === 'usage') this.countRequest(event.usage, event.agent === undefined);
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
    this.reportedCost = undefined;
  }

  /** Replaces the history (/clear, /compact, /resume): the context fill is unknown until the next request. */
  replaceMessages(messages: Message[]): void {
    this.messages = messages;
    this.contextTokens = undefined;
  }

  private countRequest(usage: Usage, ownContext: boolean): void {
    this.usage = addUsage(this.usage, usage);
    this.requests++;
    const priced = this.pricedCost === undefined ? undefined : this.services.cost(this.model, usage);
    this.pricedCost = priced === undefined ? undefined : this.pricedCost! + priced;
    const cost = (usage as Usage & { cost?: unknown }).cost;
    if (typeof cost === 'number') this.reportedCost = (this.reportedCost ?? 0) + cost;
    if (ownContext) this.contextTokens = usage.inputTokens + usage.outputTokens;
  }

  cost(): number | undefined {
    // Before the first request: $0 when the current model has a price, else unknown.
    if (this.requests === 0) return this.services.cost(this.model, this.usage) ?? this.reportedCost;
    return this.pricedCost ?? this.reportedCost;
  }

  status(maxTurns: number, state: string | undefined): StatusInfo {
    const window = this.learnedWindow ?? this.services.contextWindow(this.model);
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
