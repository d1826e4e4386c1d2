import { readFileSync, writeFileSync } from 'node:fs';
import { sortResults, type EvalResult } from './result.js';
import { SuiteError } from './task.js';
import { summarize } from './summarize.js';

/** Results then summaries, one JSON object a line. */
export function resultsJsonLines(results: EvalResult[]): string {
  return [...sortResults(results), ...summarize(results)].map((record) => JSON.stringify(record)).join('\n') + '\n';
}

export function writeResults(path: string, results: EvalResult[]): void {
  writeFileSync(path, resultsJsonLines(results));
}

/**
 * The `result` records of several shards' files, as one run: summaries are recomputed from them.
 * The same task and run in two files means shards overlapped (a wrong --shard), which is refused.
 */
export function mergeResultFiles(paths: string[]): EvalResult[] {
  const byKey = new Map<string, { result: EvalResult; path: string }>();
  for (const path of paths) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new SuiteError(`${path}: ${(error as Error).message}`);
    }
    text.split('\n').forEach((line, n) => {
      if (!line.trim()) return;
      let record: { type?: unknown };
      try {
        record = JSON.parse(line) as { type?: unknown };
      } catch {
        throw new SuiteError(`${path}:${n + 1}: not JSON.`);
      }
      if (record.type !== 'result') return;
      const result = record as EvalResult;
      const key = `${result.task}#${result.run}`;
      const earlier = byKey.get(key);
      if (earlier) throw new SuiteError(`${result.task} run ${result.run} is in both ${earlier.path} and ${path}: did two shards overlap?`);
      byKey.set(key, { result, path });
    });
  }
  return sortResults([...byKey.values()].map((entry) => entry.result));
}
