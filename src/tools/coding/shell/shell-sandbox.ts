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

/**
 * A sandbox set up on the first command, not at start-up: probing bubblewrap and finding the
 * secret files to hide cost a process spawn and a walk of the workspace, which a run that never
 * calls the shell should not pay before its first request.
 */
export function lazySandbox(create: () => ShellSandbox): ShellSandbox {
  let made: ShellSandbox | undefined;
  const sandbox = () => (made ??= create());
  return {
    get name() {
      return sandbox().name;
    },
    wrap: (argv, cwd) => sandbox().wrap(argv, cwd),
    explainFailure: (output) => sandbox().explainFailure(output),
  };
}
