import type { AgentEvent } from '../contracts/events.js';
import { addUsage, emptyUsage, type Usage } from '../contracts/messages.js';
import { costOf, priceOf, type ModelPrice } from '../providers/pricing.js';
import type { Budget } from './budget.js';

type UsageEvent = Extract<AgentEvent, { type: 'usage' }>;

/**
 * What a run has spent: the tokens of every request it made (its turns, compaction summaries, the
 * hand-off) and, when the model's price is known, their cost. The cost brake and the result read it.
 */
export class RunTotals {
  private spent: Usage = emptyUsage();
  private unreadable = 0;
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
    return costOf(this.model, this.spent, this.price);
  }

  /** Counts one request's tokens; the event reports them with the new total. */
  add(turn: number, usage: Usage, cache?: UsageEvent['cache']): UsageEvent {
    this.spent = addUsage(this.spent, usage);
    this.budget?.charge(usage, costOf(this.model, usage, this.price));
    return { type: 'usage', turn, usage, total: this.spent, ...(cache ? { cache } : {}) };
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
