/**
 * A `bash` result as the tool writes it (src/tools/coding/shell/bash.ts): the output, then a last
 * line saying how the command ended. Parsed for display only: what matters in a failed command is
 * its ending and the tail of its output, not the banner at the top.
 */
export interface CommandResult {
  /** The output lines, without the ending. */
  output: string[];
  /** `exit code: 1`, `killed: timed out after 120000 ms`, `killed by signal SIGKILL`. */
  ending: string;
  /** True for `exit code: 0`. */
  succeeded: boolean;
}

const ENDING = /^(?:exit code: -?\d+|killed(?::| by signal) .+)$/;
// Said above the ending when the middle of a long output was dropped; the fold says as much.
const TOTAL_NOTE = /^\[\d+ characters of output in all\]$/;

export function parseCommandResult(text: string): CommandResult | undefined {
  const output = text.replace(/\s+$/, '').split('\n');
  const ending = output.pop()!;
  if (!ENDING.test(ending)) return undefined;
  if (TOTAL_NOTE.test(output.at(-1) ?? '')) output.pop();
  return { output, ending, succeeded: ending === 'exit code: 0' };
}

/** Whether a call's result is a command's (the shell tool's format). */
export function isCommandTool(name: string): boolean {
  return name === 'bash';
}
