import type { PermissionMode } from '../../permissions/permission-policy.js';
import type { PlanScope } from '../../permissions/plan-scope.js';
import { oneLine } from '../display/summarize.js';
import type { Theme } from '../display/theme.js';
import type { Key } from './key-parser.js';

/** Shift-Tab's cycle, as Claude Code's: yolo is in it only for a session started in yolo. */
export function modeCycle(startedIn: PermissionMode): PermissionMode[] {
  return startedIn === 'yolo' ? ['ask', 'auto-edit', 'auto', 'yolo', 'plan'] : ['ask', 'auto-edit', 'auto', 'plan'];
}

export function nextMode(current: PermissionMode, cycle: readonly PermissionMode[]): PermissionMode {
  const index = cycle.indexOf(current);
  return cycle[(index + 1) % cycle.length]!;
}

/** The status line's word for the mode; "+plan" while an approved plan bounds the calls. */
export function modeLabel(mode: PermissionMode, following: boolean): string {
  const word = mode === 'plan' ? 'plan mode' : mode;
  return following ? `${word}+plan` : word;
}

export type PlanChoice = Exclude<PermissionMode, 'plan'> | 'keep';

const CHOICES: Record<string, PlanChoice> = { a: 'ask', e: 'auto-edit', y: 'yolo', k: 'keep' };

/** The key's answer to the plan question; Esc and Ctrl-C keep planning; other keys are ignored. */
export function planChoice(key: Key | undefined): PlanChoice | undefined {
  if (!key || key.name === 'escape' || (key.ctrl && key.name === 'c')) return 'keep';
  return key.name === 'char' && !key.ctrl ? CHOICES[(key.text ?? '').toLowerCase()] : undefined;
}

/** The question after a planning run: what the plan names, and the modes to carry it out in. */
export function planQuestionLines(scope: PlanScope, t: Theme): string[] {
  const list = (items: string[], name: 'files' | 'commands') =>
    items.length ? oneLine(items.join(', '), 80) : scope.unread?.includes(name) ? t.yellow('cannot be read (not "- entry" lines): none') : t.dim('none');
  return [
    `${t.yellow('?')} ${t.bold('Execute this plan?')} ${t.dim('A write or command the plan does not name asks again.')}`,
    `  ${t.dim('Files:')} ${list(scope.files, 'files')}   ${t.dim('Commands:')} ${list(scope.commands, 'commands')}`,
    `  ${t.bold('a')} in ask mode   ${t.bold('e')} auto-edit   ${t.bold('y')} yolo   ${t.bold('k')} keep planning   ${t.dim('(Esc = keep planning)')}`,
  ];
}

/** What the execution turn is sent: the plan itself is the conversation's last reply. */
export const EXECUTE_PLAN_PROMPT = 'The plan is approved: carry it out now.';
