import type { ApprovalAnswer } from '../../tools/approval.js';
import type { Theme } from '../display/theme.js';
import { visibleText } from '../display/visible-text.js';
import type { Key } from './key-parser.js';

/** What a key means at a question: an answer, Esc (no to this question), Ctrl-C, or nothing. */
export type KeyChoice = ApprovalAnswer | 'escape' | 'interrupt';

const ANSWERS: Record<string, ApprovalAnswer> = { y: 'yes', n: 'no', a: 'always' };

/**
 * The one table of keys for every approval and yes/no question, in the TUI and in a one-shot run:
 * y, n, and a when `offersAlways`. Anything else (Enter included) means nothing, so a stray key
 * never approves.
 */
export function keyChoice(key: Key, offersAlways: boolean): KeyChoice | undefined {
  if (key.name === 'escape') return 'escape';
  if (key.ctrl && key.name === 'c') return 'interrupt';
  if (key.name !== 'char' || key.ctrl || key.meta) return undefined;
  const answer = ANSWERS[(key.text ?? '').toLowerCase()];
  return answer === 'always' && !offersAlways ? undefined : answer;
}

/**
 * What Esc and Ctrl-C do at an approval question, the same in the TUI and a one-shot run (the table in
 * docs/permissions.md#answering-a-question): no to the call, and the turn stops — a one-shot run's turn
 * is the run (exit 130); the TUI gives the prompt back, what was typed kept. Only `n` denies and lets
 * the model go on.
 */
export const STOP_KEYS = '(Esc or Ctrl-C = no and stop)';

/** The keys line under a question; `cancel` says what Esc and Ctrl-C do where it is asked. */
export function keysLine(always: string | undefined, t: Theme, cancel = STOP_KEYS): string {
  const offer = always ? `   ${t.bold('a')} always allow ${visibleText(always).replaceAll('\n', '\\n')} this session` : '';
  return `  ${t.bold('y')} yes   ${t.bold('n')} no${offer}   ${t.dim(cancel)}`;
}

/** What was decided, as the question's last word. */
export function verdict(answer: ApprovalAnswer | 'stopped', always: string | undefined, t: Theme): string {
  if (answer === 'stopped') return `${t.yellow('denied')} ${t.dim('· the turn stops')}`;
  return answer === 'no' ? t.yellow('denied') : answer === 'always' ? t.green(`allowed (always: ${always})`) : t.green('allowed');
}
