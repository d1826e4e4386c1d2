import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parsePlanScope, type PlanScope } from '../../permissions/plan-scope.js';
import { UsageError } from '../settings/usage-error.js';

export interface ApprovedPlan {
  text: string;
  scope: PlanScope;
  /** A list the plan has but that could not be read, said in words for the user. */
  warnings: string[];
}

/** `--plan-file`: the plan's text (for the prompt) and what it names (for the permission policy). */
export function readApprovedPlan(path: string, cwd = process.cwd()): ApprovedPlan {
  let text: string;
  try {
    text = readFileSync(resolve(cwd, path), 'utf8');
  } catch (error) {
    throw new UsageError(`--plan-file: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const scope = parsePlanScope(text);
  return { text, scope, warnings: (scope.unread ?? []).map((list) => unreadWarning(path, list)) };
}

/** Why a plan's list counts as empty: its heading is followed by prose, not `- item` lines or a one-line list. */
export function unreadWarning(path: string, list: 'files' | 'commands'): string {
  const name = list === 'files' ? 'Files' : 'Commands';
  return `--plan-file ${path}: its ${name}: section cannot be read (write "- entry" one a line, or "${name}: a, b" on the heading's line); the plan names no ${list}, so every ${list === 'files' ? 'write' : 'command'} asks again.`;
}

export { promptWithPlan } from '../../conversation/approved-plan-prompt.js';
