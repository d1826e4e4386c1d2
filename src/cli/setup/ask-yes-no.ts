import { renderTrustQuestion, type AskTrust } from '../../trust/trust-question.js';
import { safeStderr } from '../display/safe-output.js';

/**
 * A trust question on the terminal (stderr), rendered by renderTrustQuestion (what the
 * repository wrote is made visible, never passed raw); Enter alone or end of input means no.
 * Undefined without a terminal.
 */
export function terminalTrust(): AskTrust | undefined {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return undefined;
  return async (question) => {
    // readline loads with the first question: most runs ask none.
    const { createInterface } = await import('node:readline');
    safeStderr.write(`${renderTrustQuestion(question).join('\n')}\n`);
    return new Promise((resolve) => {
      const reader = createInterface({ input: process.stdin, output: process.stderr });
      let answered = false;
      reader.question('Approve? [y/N] ', (answer) => {
        answered = true;
        reader.close();
        resolve(/^y(es)?$/i.test(answer.trim()));
      });
      reader.once('close', () => (answered ? undefined : resolve(false)));
    });
  };
}
