/** One problem a checker reported. `file` is relative to the workspace, with forward slashes. */
export interface Diagnostic {
  file: string;
  /** 1-based; 0 when the checker gave no position. */
  line: number;
  column: number;
  /** The checker's rule or error code (TS2322, no-unused-vars, F401); '' when it has none. */
  code: string;
  message: string;
  severity: 'error' | 'warning';
}

/** How a checker's output is read. */
export type OutputFormat = 'tsc' | 'eslint-json' | 'ruff-json' | 'lines';

/** A checker found for the workspace (or named in config), ready to run. */
export interface Checker {
  /** Short name for messages: tsc, eslint, ruff, go vet, or the configured command. */
  name: string;
  /** The command as the permission policy and the user see it. */
  command: string;
  /** What to spawn; `{file}` in an argument is replaced by the edited file (file-scoped checkers). */
  argv: string[];
  format: OutputFormat;
  /** project: checks everything at once (its last run is the next edit's baseline); file: checks the edited file. */
  scope: 'project' | 'file';
  /** Kept running between checks and asked again (the TypeScript checker): see tsc-server.ts. */
  persistent?: boolean;
  /** Lower-case extensions it checks, with the dot; empty means every file. */
  extensions: readonly string[];
}
