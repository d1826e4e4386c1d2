/**
 * How the shell's commands are confined. `wrap` turns the shell's argv into the argv to spawn
 * (e.g. `bwrap … -- bash -c cmd`); `explainFailure` reads a failed command's output and, when the
 * failure looks like the sandbox's doing, says so for the model (which could not tell from EPERM).
 */
export interface ShellSandbox {
  readonly name: string;
  wrap(argv: string[], cwd: string): string[];
  explainFailure(output: string): string | undefined;
}

export const noSandbox: ShellSandbox = {
  name: 'none',
  wrap: (argv) => argv,
  explainFailure: () => undefined,
};
