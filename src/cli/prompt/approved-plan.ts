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

/** The prompt of a run that carries out an approved plan. */
export function promptWithPlan(prompt: string, plan: string): string {
  return `${prompt}\n\nCarry out this approved plan. A write or command it does not list needs the user's approval again.\n\n<plan>\n${plan.trim()}\n</plan>`;
}
