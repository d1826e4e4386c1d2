import { addUsage, emptyUsage, type Usage } from '../contracts/messages.js';

/** What a session (or a server's event list) has spent: every request's tokens and, when known, their cost. */
export interface Spent {
  usage: Usage;
  /** US dollars; undefined when no run of it was priced. */
  cost: number | undefined;
}

type EventLike = { type?: unknown; [key: string]: unknown };

/**
 * Sums what the records say was spent, with no pricing of its own: each run's `stop.cost` (the
 * run's total, side requests and subagents included), or for a run that never stopped, the costs
 * its `usage` events recorded when they were counted (or a gateway reported on them). `sessions`,
 * `agents`, a resumed conversation's `/cost` and its status line all read this.
 */
export function spentIn(records: Iterable<EventLike>): Spent {
  let usage = emptyUsage();
  let cost: number | undefined;
  let run: number | undefined;
  const add = (amount: number | undefined) => {
    if (amount !== undefined) cost = (cost ?? 0) + amount;
  };
  for (const record of records) {
    if (record.type === 'usage') {
      const own = readUsage(record.usage);
      if (own) usage = addUsage(usage, own);
      const priced = numberOr(record.cost) ?? numberOr((record.usage as { cost?: unknown } | undefined)?.cost);
      if (priced !== undefined) run = (run ?? 0) + priced;
    } else if (record.type === 'stop') {
      add(numberOr(record.cost) ?? run);
      run = undefined;
    }
  }
  add(run);
  return { usage, cost };
}

function readUsage(value: unknown): Usage | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const raw = value as Record<string, unknown>;
  const usage: Usage = {
    inputTokens: numberOr(raw.inputTokens) ?? 0,
    outputTokens: numberOr(raw.outputTokens) ?? 0,
    cachedInputTokens: numberOr(raw.cachedInputTokens) ?? 0,
    cacheWriteTokens: numberOr(raw.cacheWriteTokens) ?? 0,
    reasoningTokens: numberOr(raw.reasoningTokens) ?? 0,
  };
  const writes1h = numberOr(raw.cacheWrite1hTokens);
  if (writes1h) usage.cacheWrite1hTokens = writes1h;
  if (raw.estimated === true) usage.estimated = true;
  return usage;
}

function numberOr(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
