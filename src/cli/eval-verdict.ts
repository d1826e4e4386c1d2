import { judgePassRate } from '../eval/min-pass.js';
import type { EvalResult } from '../eval/result.js';
import { oneLine } from './display/summarize.js';
import { visibleText } from './display/visible-text.js';

const percent = (rate: number) => `${Math.round(rate * 1000) / 10}%`;

/** The stderr text when the pass rate is below `--min-pass`: the rate and each failed run with why; undefined when it is not. */
export function belowMinPass(results: readonly EvalResult[], minPass: number, given: boolean): string | undefined {
  const verdict = judgePassRate(results, minPass);
  if (verdict.ok) return undefined;
  const wanted = given ? `below --min-pass ${percent(minPass)}` : 'and every run must pass (--min-pass RATE sets a lower bar)';
  const lines = verdict.failed.map((result) => `  ${visibleText(result.task)} #${result.run}: ${oneLine(visibleText(result.reason ?? 'failed'), 160)}`);
  return `vibe-agent eval: ${verdict.passed} of ${verdict.runs} runs passed (${percent(verdict.passed / verdict.runs)}), ${wanted}. Failed:\n${lines.join('\n')}\n`;
}
