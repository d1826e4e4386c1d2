/** A flag that says what to do rather than how (no environment variable, no config key). */
export interface CommandOption {
  /** The long flag without its dashes. */
  flag: string;
  short?: string;
  /** The flag's value in --help; none for a switch. */
  value?: string;
  help: string;
}

/** The command line's own flags, in --help order after the settings. */
export const COMMAND_OPTIONS: readonly CommandOption[] = [
  { flag: 'prompt', short: 'p', value: 'TEXT', help: 'the task (or give it as the argument)' },
  { flag: 'cwd', value: 'DIR', help: 'workspace directory (default: the current directory)' },
  { flag: 'yes', short: 'y', help: 'the same as --permission-mode yolo' },
  { flag: 'continue', short: 'c', help: 'continue the latest session of this workspace' },
  { flag: 'resume', value: '[ID]', help: 'continue a chosen session (id or prefix; without one, list them)' },
  { flag: 'no-session', help: 'do not save this run as a session' },
  { flag: 'json', help: 'one JSON event per line on stdout; the last is {"type":"stop",...}' },
  { flag: 'compare-protocols', help: 'with demo: run the four tasks both ways and print a table' },
  { flag: 'rewind-to', value: 'N', help: 'rewind --to N: the point to go back to, as rewind --list numbers them (default: before the last prompt)' },
  { flag: 'files-only', help: 'with rewind: restore the files, keep the conversation' },
  { flag: 'conversation-only', help: 'with rewind: rewind the conversation, keep the files' },
  { flag: 'force', help: 'with rewind: overwrite files changed since the agent left them, without asking' },
  { flag: 'list', help: 'with rewind: list the points: each prompt, its time and the files it changed' },
  { flag: 'html', value: 'FILE', help: 'with trace: write the page to FILE (one self-contained HTML file) instead of serving it' },
  { flag: 'no-open', help: 'with trace: print the URL without opening a browser' },
  { flag: 'against', help: 'with replay: feed the recorded tool results to the configured live model and report the first turn its calls differ' },
  { flag: 'user', help: 'with memory edit or forget: the user memory file instead of the project one' },
  { flag: 'runs', value: 'N', help: 'with eval: runs of each task (default 1)' },
  { flag: 'concurrency', value: 'K', help: 'with eval: tasks run at once (default 1)' },
  { flag: 'shard', value: 'I/N', help: 'with eval: run only the I-th of N deterministic slices (for CI matrices, Kubernetes Indexed Jobs)' },
  { flag: 'suite', value: 'DIR', help: 'with eval: a folder of task files instead of the built-in suite' },
  { flag: 'min-pass', value: 'RATE', help: 'with eval: exit 5 when fewer runs pass (0 to 1, or a percentage; default: every run must pass)' },
  { flag: 'output', short: 'o', value: 'FILE', help: 'with eval: write the results as JSON Lines to FILE' },
  { flag: 'http', value: '[HOST:]PORT', help: 'with mcp serve: streamable HTTP at /mcp on 127.0.0.1 (or HOST) instead of stdio; bearer token from VIBE_MCP_TOKEN, else printed' },
  { flag: 'version', short: 'v', help: 'print the version' },
  { flag: 'help', short: 'h', help: 'this help' },
];
