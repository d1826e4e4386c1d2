import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parsePlanScope, type PlanScope } from '../../permissions/plan-scope.js';
import { UsageError } from '../settings/usage-error.js';

export interface ApprovedPlan {
  text: string;
  scope: PlanScope;
}

/** `--plan-file`: the plan's text (for the prompt) and what it names (for the permission policy). */
export function readApprovedPlan(path: string, cwd = process.cwd()): ApprovedPlan {
  let text: string;
  try {
    text = readFileSync(resolve(cwd, path), 'utf8');
  } catch (error) {
    throw new UsageError(`--plan-file: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return { text, scope: parsePlanScope(text) };
}

export { promptWithPlan } from '../../conversation/approved-plan-prompt.js';
