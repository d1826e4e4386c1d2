import { renderTrustQuestion, type AskTrust } from '../../trust/trust-question.js';
import { safeStderr } from '../display/safe-output.js';
import { holdWaitStatus } from '../display/wait-status.js';
import { colorEnabled, createTheme } from '../display/theme.js';
import { keyChoice, keysLine } from '../tui/approval-keys.js';
import { readKeyAnswer, takesSingleKeys } from './read-key-answer.js';
import { interruptThisProcess, YES_NO_CANCEL } from './terminal-approval.js';

/** Whether a yes/no question can be asked here: stdin takes single keys and stderr is a terminal. */
export function canAskYesNo(): boolean {
  return takesSingleKeys(process.stdin) && process.stderr.isTTY === true;
}

/**
 * A yes/no question on the terminal (stderr), answered by one key as an approval is: y or n; Esc or
 * end of input means no, Ctrl-C stops the run. Call only when canAskYesNo() holds.
 */
export async function askYesNo(question: string, said: { yes: string; no: string } = { yes: 'yes', no: 'no' }): Promise<boolean> {
  const input = process.stdin;
  if (!takesSingleKeys(input)) return false;
  const t = createTheme(colorEnabled(process.stderr));
  // A one-shot run's wait line is erased while the question is on the terminal, and drawn again after its answer.
  const release = holdWaitStatus();
  try {
    safeStderr.write(`${question}${keysLine(undefined, t, YES_NO_CANCEL)} `);
    const read = await readKeyAnswer(input, (key) => keyChoice(key, false));
    if ('ended' in read) {
      safeStderr.write(`\n  ${t.dim(`${read.ended}: ${said.no}`)}\n`);
      return false;
    }
    safeStderr.write(`\n  ${read.chosen === 'yes' ? t.green(said.yes) : t.yellow(said.no)}\n`);
    if (read.chosen === 'interrupt') interruptThisProcess();
    return read.chosen === 'yes';
  } finally {
    release();
  }
}

/**
 * A trust question on the terminal, rendered by renderTrustQuestion (what the repository wrote is
 * made visible, never passed raw), answered by askYesNo. Undefined without a terminal.
 */
export function terminalTrust(): AskTrust | undefined {
  if (!canAskYesNo()) return undefined;
  return (question) => askYesNo(`${renderTrustQuestion(question).join('\n')}\nApprove?`, { yes: 'approved', no: 'declined' });
}
