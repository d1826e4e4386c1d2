/** A yes/no question on the terminal (stderr), Enter alone or end of input meaning no; undefined without a terminal. */
export function terminalYesNo(): ((question: string) => Promise<boolean>) | undefined {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return undefined;
  return async (question) => {
    // readline loads with the first question: most runs ask none.
    const { createInterface } = await import('node:readline');
    return new Promise((resolve) => {
      const reader = createInterface({ input: process.stdin, output: process.stderr });
      let answered = false;
      reader.question(`${question} [y/N] `, (answer) => {
        answered = true;
        reader.close();
        resolve(/^y(es)?$/i.test(answer.trim()));
      });
      reader.once('close', () => (answered ? undefined : resolve(false)));
    });
  };
}
