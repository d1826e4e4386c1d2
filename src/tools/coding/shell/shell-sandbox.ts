/**
 * How the shell's commands are confined. `wrap` turns the shell's argv into the argv to spawn
 * (e.g. `bwrap … -- bash -c cmd`); `explainFailure` reads a failed command's output and, when the
 * failure looks like the sandbox's doing, says so for the model (which could not tell from EPERM).
 */
export interface ShellSandbox {
  readonly name: string;
  wrap(argv: string[], cwd: string): string[];
  /**
   * Like `wrap`, for the `bash` tool's shell. `exitOnFd3`: the shell's exit status comes as a line
   * on fd 3 while the process itself lives on as long as what the shell left running (bubblewrap:
   * its PID namespace would end with the shell, and a `server &` with it).
   */
  wrapShell?(argv: string[], cwd: string): { argv: string[]; exitOnFd3: boolean };
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
    wrapShell: (argv, cwd) => shellArgv(sandbox(), argv, cwd),
    explainFailure: (output) => sandbox().explainFailure(output),
  };
}

/** The shell's argv under a sandbox, and whether its exit comes on fd 3 (see `wrapShell`). */
export function shellArgv(sandbox: ShellSandbox, argv: string[], cwd: string): { argv: string[]; exitOnFd3: boolean } {
  return sandbox.wrapShell?.(argv, cwd) ?? { argv: sandbox.wrap(argv, cwd), exitOnFd3: false };
}
