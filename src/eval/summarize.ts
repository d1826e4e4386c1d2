import type { EvalResult } from './result.js';
import { wilsonInterval } from './wilson.js';

/** Pass rate with its 95% Wilson interval and means per run, for one task or the whole suite (`task: "overall"`). */
export interface EvalSummary {
  type: 'summary';
  task: string;
  runs: number;
  passes: number;
  passRate: number;
  ci95: [number, number];
  meanTurns: number;
  inputTokens: number;
  outputTokens: number;
  /** Total US dollars; null when some run's model had no known price. */
  cost: number | null;
  meanWallMs: number;
  /** The failure reasons, counted. */
  failures: Record<string, number>;
}

/** One summary per task (id order), then the overall one. */
export function summarize(results: EvalResult[]): EvalSummary[] {
  const tasks = [...new Set(results.map((result) => result.task))].sort();
  return [...tasks.map((task) => summary(task, results.filter((result) => result.task === task))), summary('overall', results)];
}

function summary(task: string, results: EvalResult[]): EvalSummary {
  const runs = results.length;
  const passes = results.filter((result) => result.passed).length;
  const mean = (pick: (result: EvalResult) => number) => (runs ? results.reduce((sum, result) => sum + pick(result), 0) / runs : 0);
  const failures: Record<string, number> = {};
  for (const result of results) if (result.reason) failures[kind(result.reason)] = (failures[kind(result.reason)] ?? 0) + 1;
  return {
    type: 'summary',
    task,
    runs,
    passes,
    passRate: runs ? passes / runs : 0,
    ci95: wilsonInterval(passes, runs),
    meanTurns: mean((result) => result.turns),
    inputTokens: results.reduce((sum, result) => sum + result.inputTokens, 0),
    outputTokens: results.reduce((sum, result) => sum + result.outputTokens, 0),
    cost: results.some((result) => result.cost === null) ? null : results.reduce((sum, result) => sum + (result.cost ?? 0), 0),
    meanWallMs: Math.round(mean((result) => result.wallMs)),
    failures,
  };
}

/** "turn budget: 10 turns used up" → "turn budget"; "check failed (exit 1): …" → "check failed". */
function kind(reason: string): string {
  return reason.split(/[:(]/)[0]!.trim();
}
