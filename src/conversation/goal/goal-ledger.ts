import { addUsage, emptyUsage, type Usage } from '../../contracts/messages.js';
import type { GoalCaps, GoalSpent } from './goal-types.js';

const tokensOf = (usage: Usage) => usage.inputTokens + usage.outputTokens;

/**
 * What a goal has spent (the agent's tree and the judge apart), against its caps, and whether it is
 * going round in circles: the same judge reason, or the same calls with the same results, turn
 * after turn.
 */
export class GoalLedger {
  private spent: GoalSpent;
  private readonly started: number;
  private reasons: string[] = [];
  private workPrints: string[] = [];

  constructor(
    readonly caps: GoalCaps,
    private readonly stallTurns: number,
    before?: GoalSpent,
    private readonly now: () => number = Date.now,
  ) {
    this.spent = before ? { ...before } : { turns: 0, tokens: 0, agentCost: 0, judgeCost: 0, agentUsage: emptyUsage(), judgeUsage: emptyUsage(), elapsedMs: 0 };
    this.started = now() - this.spent.elapsedMs;
  }

  agentTurn(usage: Usage, cost: number | undefined, counts = true): void {
    if (counts) this.spent.turns++;
    this.spent.agentUsage = addUsage(this.spent.agentUsage, usage);
    this.spent.agentCost += cost ?? 0;
  }

  judged(usage: Usage, cost: number | undefined): void {
    this.spent.judgeUsage = addUsage(this.spent.judgeUsage, usage);
    this.spent.judgeCost += cost ?? 0;
  }

  snapshot(): GoalSpent {
    const spent = this.spent;
    return { ...spent, tokens: tokensOf(spent.agentUsage) + tokensOf(spent.judgeUsage), elapsedMs: this.now() - this.started };
  }

  /** Wall time left before the time cap (never below 0). */
  msLeft(): number {
    return Math.max(0, this.caps.maxMs - (this.now() - this.started));
  }

  /** The first cap reached, in words, or undefined. A cap is reached at its value (turns) or above it (money, tokens). */
  capReached(): string | undefined {
    const spent = this.snapshot();
    const { caps } = this;
    if (spent.turns >= caps.maxTurns) return `the turn cap (${spent.turns} of ${caps.maxTurns} turns)`;
    const cost = spent.agentCost + spent.judgeCost;
    if (cost > caps.maxCost) return `the cost cap ($${cost.toFixed(4)} spent of $${caps.maxCost})`;
    if (spent.tokens > caps.maxTokens) return `the token cap (${spent.tokens} of ${caps.maxTokens} tokens)`;
    if (spent.elapsedMs >= caps.maxMs) return `the time cap (${Math.round(spent.elapsedMs / 1000)} s of ${Math.round(caps.maxMs / 1000)} s)`;
    return undefined;
  }

  /** Records a turn's judge reason and its work's fingerprint; says why the goal is stuck, when it is. */
  stalled(reason: string, workPrint: string): string | undefined {
    this.reasons.push(reason.trim().toLowerCase());
    this.workPrints.push(workPrint);
    const n = this.stallTurns;
    const lastSame = (list: string[]) => list.length >= n && list.slice(-n).every((item) => item === list[list.length - 1]);
    if (lastSame(this.reasons)) return `no progress: the judge gave the same reason ${n} turns in a row ("${reason.trim()}")`;
    if (lastSame(this.workPrints)) return `no progress: the agent made the same calls with the same results ${n} turns in a row`;
    return undefined;
  }
}
