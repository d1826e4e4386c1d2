import { renderTrustQuestion, type AskTrust } from '../../trust/trust-question.js';
import { safeStderr } from '../display/safe-output.js';
import { colorEnabled, createTheme } from '../display/theme.js';
import { keyChoice, keysLine } from '../tui/approval-keys.js';
import { readKeyAnswer, takesSingleKeys } from './read-key-answer.js';
import { interruptThisProcess, ONE_SHOT_CANCEL } from './terminal-approval.js';

/**
 * A trust question on the terminal (stderr), rendered by renderTrustQuestion (what the
 * repository wrote is made visible, never passed raw), answered by one key as an approval is:
 * y or n; Esc or end of input means no, Ctrl-C stops the run. Undefined without a terminal.
 */
export function terminalTrust(): AskTrust | undefined {
  const input = process.stdin;
  if (!takesSingleKeys(input) || !process.stderr.isTTY) return undefined;
  const t = createTheme(colorEnabled(process.stderr));
  return async (question) => {
    safeStderr.write(`${renderTrustQuestion(question).join('\n')}\nApprove?${keysLine(undefined, t, ONE_SHOT_CANCEL)} `);
    const read = await readKeyAnswer(input, (key) => keyChoice(key, false));
    if ('ended' in read) {
      safeStderr.write(`\n  ${t.dim(`${read.ended}: no`)}\n`);
      return false;
    }
    safeStderr.write(`\n  ${read.chosen === 'yes' ? t.green('approved') : t.yellow('declined')}\n`);
    if (read.chosen === 'interrupt') interruptThisProcess();
    return read.chosen === 'yes';
  };
}
