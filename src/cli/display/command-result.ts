/**
 * A `bash` result as the tool writes it (src/tools/coding/shell/bash.ts): the output, then a last
 * line saying how the command ended, which a successful command with output leaves out (it would
 * cost the model tokens every round). Parsed for display only: what matters in a failed command is
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

const SUCCESS = 'exit code: 0';

/** `isError` is the result's own flag: a successful result may end in any line, even one that looks like an ending. */
export function parseCommandResult(text: string, isError = true): CommandResult | undefined {
  const output = text.replace(/\s+$/, '').split('\n');
  if (!isError) {
    if (output.at(-1) === SUCCESS || output.at(-1) === '') output.pop();
    if (TOTAL_NOTE.test(output.at(-1) ?? '')) output.pop();
    return { output, ending: SUCCESS, succeeded: true };
  }
  const ending = output.pop()!;
  if (!ENDING.test(ending)) return undefined;
  if (TOTAL_NOTE.test(output.at(-1) ?? '')) output.pop();
  return { output, ending, succeeded: ending === SUCCESS };
}

/** Whether a call's result is a command's (the shell tool's format). */
export function isCommandTool(name: string): boolean {
  return name === 'bash';
}
