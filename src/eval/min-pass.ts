import type { EvalResult } from './result.js';

/**
 * `--min-pass RATE`: a fraction from 0 to 1 (`0.8`) or a percentage (`80%`); absent, every run must
 * pass. A string is why the text is not a rate.
 */
export function parseMinPass(text: string | undefined): number | string {
  if (text === undefined) return 1;
  const percent = text.trim().endsWith('%');
  const digits = percent ? text.trim().slice(0, -1).trim() : text.trim();
  const value = /^(\d+(\.\d*)?|\.\d+)$/.test(digits) ? Number(digits) / (percent ? 100 : 1) : NaN;
  if (!(value >= 0 && value <= 1)) return `--min-pass takes a pass rate from 0 to 1 or a percentage (0.8 or 80%), got "${text}".`;
  return value;
}

export interface PassVerdict {
  passed: number;
  runs: number;
  /** Whether the pass rate reaches the minimum (no runs at all: nothing failed). */
  ok: boolean;
  failed: EvalResult[];
}

export function judgePassRate(results: readonly EvalResult[], minPass: number): PassVerdict {
  const failed = results.filter((result) => !result.passed);
  const runs = results.length;
  const passed = runs - failed.length;
  return { passed, runs, ok: runs === 0 || passed >= minPass * runs - 1e-9, failed };
}
