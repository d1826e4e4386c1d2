import type { AgentEvent } from '../contracts/events.js';
import { addUsage, emptyUsage, type Usage } from '../contracts/messages.js';
import { costOf, priceOf, requestCost, type ModelPrice } from '../providers/pricing.js';
import type { Budget } from './budget.js';

type UsageEvent = Extract<AgentEvent, { type: 'usage' }>;

/**
 * What a run has spent: the tokens of every request it made (its turns, compaction summaries, the
 * hand-off) and, when the model's price is known, their cost. The cost brake and the result read it.
 */
export class RunTotals {
  private spent: Usage = emptyUsage();
  /** The sum of each request's cost; undefined once a request could not be priced. */
  private spentCost: number | undefined = 0;
  private requests = 0;
  private unreadable = 0;
  /** What side requests (a permission reviewer) cost, priced at their own model's price. */
  private sideCost = 0;
  private sideUsage: Usage = emptyUsage();
  private resolved: { price: ModelPrice | undefined } | undefined;

  constructor(
    readonly model: string,
    /** The model's price; unset: looked up in the catalog when first needed (after the first reply), never at start-up. */
    private readonly givenPrice?: ModelPrice,
    /** The agent tree's budget, charged with every request as it is counted here. */
    readonly budget?: Budget,
  ) {}

  get price(): ModelPrice | undefined {
    this.resolved ??= { price: this.givenPrice ?? priceOf(this.model) };
    return this.resolved.price;
  }

  get usage(): Usage {
    return this.spent;
  }

  /** Replies a text protocol (prompt-JSON) could not read. */
  get protocolErrors(): number {
    return this.unreadable;
  }

  /** US dollars at list prices; undefined when the model's price is unknown. */
  cost(): number | undefined {
    // Before any request: $0 when the model has a price, else unknown.
    const own = this.requests === 0 ? costOf(this.model, this.spent, this.price) : this.spentCost;
    return own === undefined ? (this.sideCost > 0 ? this.sideCost : undefined) : own + this.sideCost;
  }

  /** Tokens side requests used (reported in their own events, not in `usage`). */
  get side(): { usage: Usage; cost: number } {
    return { usage: this.sideUsage, cost: this.sideCost };
  }

  /**
   * Counts a side request (a permission reviewer's), whose model and price may differ from the
   * run's: its cost joins the run's cost and the tree's budget; its tokens are kept apart.
   */
  addSide(usage: Usage, cost: number | undefined): void {
    this.sideUsage = addUsage(this.sideUsage, usage);
    if (cost !== undefined) this.sideCost += cost;
    this.budget?.charge(usage, cost);
  }

  /** Counts one request's tokens; the event reports them with the new total. */
  add(turn: number, usage: Usage, cache?: UsageEvent['cache']): UsageEvent {
    this.spent = addUsage(this.spent, usage);
    this.requests++;
    const cost = requestCost(this.model, usage, this.price);
    this.spentCost = cost === undefined || this.spentCost === undefined ? undefined : this.spentCost + cost;
    this.budget?.charge(usage, cost);
    return { type: 'usage', turn, usage, total: this.spent, ...(cost !== undefined ? { cost } : {}), ...(cache ? { cache } : {}) };
  }

  /** Counts one unreadable reply; returns the run's count so far. */
  addProtocolError(): number {
    return ++this.unreadable;
  }

  /** The context policy's events; a compaction's summary request is a request of this run, so its usage counts. */
  *contextEvents(events: AgentEvent[] | undefined, turn: number): Generator<AgentEvent> {
    for (const event of events ?? []) {
      yield event;
      if (event.type === 'compaction' && event.usage) yield this.add(turn, event.usage);
    }
  }
}
