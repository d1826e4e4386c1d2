/** A flag that says what to do rather than how (no environment variable, no config key). */
export interface CommandOption {
  /** The long flag without its dashes. */
  flag: string;
  short?: string;
  /** The flag's value in --help; none for a switch. */
  value?: string;
  /** Given more than once, each adds a value (`--header A --header B`). */
  multiple?: boolean;
  help: string;
}

/** The flags every command takes (beside the settings'); each command's own are in commands/NAME/spec.ts. */
export const SHARED_OPTIONS: readonly CommandOption[] = [
  { flag: 'cwd', value: 'DIR', help: 'workspace directory (default: the current directory)' },
  { flag: 'yes', short: 'y', help: 'the same as --permission-mode yolo' },
  { flag: 'json', help: 'one JSON event per line on stdout; the last is {"type":"stop",...}' },
  { flag: 'version', short: 'v', help: 'print the version' },
  { flag: 'help', short: 'h', help: 'this help; COMMAND --help for a command, --help all for every option' },
];
