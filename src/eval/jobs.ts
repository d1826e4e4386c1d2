import type { EvalTask } from './task.js';

/** One run of one task. */
export interface EvalJob {
  task: EvalTask;
  /** 1-based. */
  run: number;
}

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

/** Every task `runs` times, tasks in id order, runs in order: the same list on every machine. */
export function expandJobs(tasks: EvalTask[], runs: number): EvalJob[] {
  return [...tasks].sort((a, b) => a.id.localeCompare(b.id)).flatMap((task) => Array.from({ length: runs }, (_, n) => ({ task, run: n + 1 })));
}

/** The jobs of shard i/N: every N-th, starting at the i-th, so shards are disjoint, cover all, and balance runs of one task. */
export function shardJobs(jobs: EvalJob[], shard: Shard | undefined): EvalJob[] {
  if (!shard) return jobs;
  return jobs.filter((_, position) => position % shard.count === shard.index - 1);
}

/** "2/5" → { index: 2, count: 5 }, or an error message. */
export function parseShard(text: string): Shard | string {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || index < 1 || index > count) return `--shard takes I/N with 1 ≤ I ≤ N (e.g. 2/5), got "${text}".`;
  return { index, count };
}
