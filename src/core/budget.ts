import type { AgentSpend, StopReason } from '../contracts/events.js';
import { addUsage, emptyUsage, type Usage } from '../contracts/messages.js';

/** Limits on what an agent and everything it starts may spend; absent means no limit of its own. */
export interface BudgetLimits {
  /** US dollars. */
  maxCost?: number;
  /** Model requests. */
  maxTurns?: number;
  /** Input plus output tokens. */
  maxTokens?: number;
}

interface Spent {
  cost: number;
  turns: number;
  tokens: number;
}

const KINDS = ['cost', 'turns', 'tokens'] as const;
type Kind = (typeof KINDS)[number];
const LIMIT_OF: Record<Kind, keyof BudgetLimits> = { cost: 'maxCost', turns: 'maxTurns', tokens: 'maxTokens' };

/**
 * One budget for a tree of agents. Each agent holds a node; a request is charged to its node and
 * every ancestor, and every runAgent asks `exhausted()` before it sends a request, so once any
 * limit on the path to the root is spent nobody sends another. A child's share is its own limits,
 * capped by what is left; while it runs, the unspent part of its share is reserved, so the same
 * money is never handed to two children.
 */
export class Budget {
  private readonly spent: Spent = { cost: 0, turns: 0, tokens: 0 };
  private ownUsage: Usage = emptyUsage();
  private treeUsage: Usage = emptyUsage();
  private ownTurns = 0;
  private ownCost: number | undefined;
  /** Some usage charged here was estimated (the server reported none). */
  private estimated = false;
  private readonly running = new Set<Budget>();
  /** Every node of the tree, the root's list only, in the order they were made. */
  private readonly nodes: Budget[];

  constructor(
    readonly limits: BudgetLimits = {},
    readonly agent = 'main',
    private readonly parent?: Budget,
    /** Which limits the share reserves (those its definition set). */
    private readonly reserves: ReadonlySet<Kind> = new Set(),
  ) {
    this.nodes = parent ? parent.nodes : [];
    this.nodes.push(this);
  }

  /**
   * A child's budget: its definition's limits, never more than what is left here once the other
   * running children's reservations are set aside. `release()` it when the child is done.
   */
  share(agent: string, wanted: BudgetLimits): Budget {
    const limits: BudgetLimits = {};
    const reserves = new Set<Kind>();
    for (const kind of KINDS) {
      const key = LIMIT_OF[kind];
      const own = wanted[key];
      if (own !== undefined) reserves.add(kind);
      const left = this.left(kind);
      const limit = Math.min(own ?? Infinity, left);
      if (limit !== Infinity) limits[key] = Math.max(0, limit);
    }
    const child = new Budget(limits, agent, this, reserves);
    this.running.add(child);
    return child;
  }

  /** The child is done: what it did not spend of its share is free again. */
  release(): void {
    this.parent?.running.delete(this);
  }

  /** Counts one request (a turn) before it is sent. */
  countTurn(): void {
    this.ownTurns++;
    for (let node: Budget | undefined = this; node; node = node.parent) node.spent.turns++;
  }

  /** Charges one request's tokens and cost here and to every ancestor. */
  charge(usage: Usage, cost: number | undefined): void {
    this.ownUsage = addUsage(this.ownUsage, usage);
    if (cost !== undefined) this.ownCost = (this.ownCost ?? 0) + cost;
    for (let node: Budget | undefined = this; node; node = node.parent) {
      node.treeUsage = addUsage(node.treeUsage, usage);
      node.spent.tokens += usage.inputTokens + usage.outputTokens;
      node.spent.cost += cost ?? 0;
      if (usage.estimated) node.estimated = true;
    }
  }

  /**
   * The stop a limit reached here or on the way to the root calls for; undefined while every limit
   * has something left. The one boundary rule, for a single agent and a tree: a limit is reached
   * once what was spent equals or passes it (a $0.50 limit stops the run at $0.50). Each limit has
   * one message, naming whose limit it was only in a tree.
   */
  exhausted(): { reason: StopReason; error: string } | undefined {
    for (let node: Budget | undefined = this; node; node = node.parent) {
      const { maxCost, maxTurns, maxTokens } = node.limits;
      const whose = node.hasChildren ? `the agent tree (${node.agent}) ` : node.parent ? 'this agent ' : '';
      if (maxCost !== undefined && node.spent.cost >= maxCost) {
        return { reason: 'cost_limit', error: `${whose}spent $${node.spent.cost.toFixed(4)} of the $${maxCost} limit${node.estimated ? ' (partly estimated usage)' : ''}` };
      }
      if (maxTokens !== undefined && node.spent.tokens >= maxTokens) {
        return { reason: 'token_limit', error: `${whose}used ${node.spent.tokens} of the ${maxTokens}-token limit` };
      }
      if (maxTurns !== undefined && node.spent.turns >= maxTurns) {
        return { reason: 'turn_limit', error: `${whose}made ${node.spent.turns} of the ${maxTurns} requests allowed` };
      }
    }
    return undefined;
  }

  /** Whether a cost limit holds here or above (then every request must be priced). */
  get limitsCost(): boolean {
    for (let node: Budget | undefined = this; node; node = node.parent) if (node.limits.maxCost !== undefined) return true;
    return false;
  }

  /** Tokens of this agent and everything under it. */
  get usage(): Usage {
    return this.treeUsage;
  }

  /** Dollars of this agent and everything under it (0 when no price was known). */
  get cost(): number {
    return this.spent.cost;
  }

  /** What each agent of this subtree spent, this one first. */
  breakdown(): AgentSpend[] {
    const prefix = `${this.agent}/`;
    return this.nodes
      .filter((node) => node === this || node.agent.startsWith(prefix))
      .map((node) => ({ agent: node.agent, turns: node.ownTurns, usage: node.ownUsage, ...(node.ownCost !== undefined ? { cost: node.ownCost } : {}) }));
  }

  /** Whether other agents have spent under this one (then its stop reports the tree). */
  get hasChildren(): boolean {
    return this.nodes.some((node) => node.parent === this);
  }

  /** What is left of a limit here and up the tree, with running children's unspent shares set aside. */
  private left(kind: Kind): number {
    let left = Infinity;
    // An ancestor's reservation for the child on our own path is the money we are sharing from.
    let path: Budget | undefined;
    for (let node: Budget | undefined = this; node; path = node, node = node.parent) {
      const limit = node.limits[LIMIT_OF[kind]];
      if (limit === undefined) continue;
      let reserved = 0;
      for (const child of node.running) {
        if (child === path) continue;
        const share = child.limits[LIMIT_OF[kind]];
        if (child.reserves.has(kind) && share !== undefined) reserved += Math.max(0, share - child.spent[kind]);
      }
      left = Math.min(left, limit - node.spent[kind] - reserved);
    }
    return left;
  }
}
